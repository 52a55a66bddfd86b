// What `kopt eval --compile-only` and `kopt task check` (with --compile-only, or on a machine without a
// GPU) share: the compile-check options from the command line, and printing the report (docs/cli.md).
#pragma once

#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "kopt/compile_check.hpp"
#include "kopt/result.hpp"

namespace kopt::cli {

struct CompileOnlyFlags {
  std::string arch;  // empty: kopt's primary target
  std::vector<std::string> gencode;
  std::vector<std::string> flags;  // candidates only
  std::string mode = "auto";
  std::string sizes;  // "a,b": the size cases whose launch geometry is checked; empty: all
};

// Each value checked (invalid_argument naming the option and what was expected); --sizes against the task.
Result<CompileCheckOptions> compile_check_options(CompileOnlyFlags const& flags, TaskSpec const& task);

// The report as kopt.compile_check/1 JSON or as text, on console.out.
void print_compile_check(CompileCheckReport const& report, bool json, Console const& console);

}  // namespace kopt::cli
