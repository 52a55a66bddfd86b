// Shared by the command-line tests: parse a kopt command line as main() would (every registered command),
// capturing its output.
#pragma once

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/command_registry.hpp"

namespace kopt::cli::test {

struct Run {
  ParsedCommandLine parsed;
  std::string out;
  std::string err;
};

// `args` without the program name ("kopt" is put in front).
inline Run parse(std::vector<char const*> const& args) {
  std::vector<char const*> argv(args.size() + 1, "kopt");
  std::copy(args.begin(), args.end(), argv.begin() + 1);
  std::ostringstream out;
  std::ostringstream err;
  Run run{parse_command_line(static_cast<int>(argv.size()), argv.data(), out, err, cli_commands()), "", ""};
  run.out = out.str();
  run.err = err.str();
  return run;
}

}  // namespace kopt::cli::test
