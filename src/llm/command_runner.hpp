// Runs a program (argv, no shell) with `input` on its stdin and collects its stdout, with a timeout
// that kills the program's whole process group. toolchain's ChildProcess is line-oriented and cannot
// close the child's stdin while still reading its output, which a prompt-in, reply-out command needs.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "kopt/child_process.hpp"
#include "kopt/result.hpp"

namespace kopt::llm {

struct CommandOutcome {
  ExitInfo exit;
  bool timed_out = false;
  std::string output;      // stdout, at most 16 MiB
  std::string error_tail;  // the last 4000 bytes of stderr
};

// argv[0] must be a path. Errors only when the process cannot be started (pipes, fork).
Result<CommandOutcome> run_with_input(std::vector<std::string> const& argv, std::string const& input,
                                      std::chrono::milliseconds timeout);

}  // namespace kopt::llm
