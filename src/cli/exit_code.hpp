// How `kopt` ends: the exit codes and the single mapping from kopt errors to them (docs/cli.md).
#pragma once

#include <string_view>

#include "kopt/eval.hpp"
#include "kopt/result.hpp"

namespace kopt::cli {

enum class ExitCode : int {
  success = 0,      // ran, and every candidate is ok
  rejected = 1,     // ran, and at least one candidate got a status other than ok
  usage = 2,        // bad arguments or invalid input: malformed task spec, unreadable file
  environment = 3,  // no GPU, toolchain missing, worker failed to start
  internal = 4,     // a bug in kopt
};

constexpr int to_int(ExitCode code) noexcept {
  return static_cast<int>(code);
}

// Where an error came from. `not_found` and `io_error` are the user's input (a task file, a candidate)
// while reading input, and the machine's setup (nvcc, the worker binary, the cache) while starting up.
enum class ErrorOrigin { input, environment };

ExitCode exit_code_for(ErrorCode code, ErrorOrigin origin) noexcept;
// success when every candidate is ok (and there is at least one), rejected otherwise.
ExitCode exit_code_for(EvalReport const& report) noexcept;

// The table printed in `kopt --help` and docs/cli.md.
std::string_view exit_code_help() noexcept;

}  // namespace kopt::cli
