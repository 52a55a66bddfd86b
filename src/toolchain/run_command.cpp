// run_program and run_command: a tool run to completion through run_process. It leads a process group
// of its own so that a timeout kills the whole tree it started (nvcc starts cicc, ptxas, the host
// compiler; a shell its commands); stdout and stderr are one stream, as on a terminal.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "kopt/child_process.hpp"
#include "kopt/toolchain.hpp"

namespace kopt {
namespace {

constexpr std::size_t kMaxOutputBytes = std::size_t{1} << 20;  // 1 MiB
constexpr char kTruncatedNote[] = "\n[kopt: output truncated at 1 MiB]\n";

}  // namespace

CommandResult run_program(std::vector<std::string> const& argv,
                          std::optional<std::chrono::milliseconds> timeout) {
  ProcessSpec spec;
  spec.argv = argv;
  spec.stderr_target = StderrTarget::with_stdout;
  spec.own_process_group = true;
  CommunicateOptions options;
  if (timeout) options.timeout = std::max(*timeout, std::chrono::milliseconds(0));
  options.max_output_bytes = kMaxOutputBytes;
  CommandResult result;
  auto outcome = run_process(spec, options);
  if (!outcome) {
    result.output = "kopt: cannot run the command: " + outcome.error().message;
    return result;
  }
  result.exit_code = outcome->exit.exited ? outcome->exit.code : 128 + outcome->exit.code;
  result.output = std::move(outcome->output);
  result.timed_out = outcome->timed_out;
  if (outcome->output_truncated) result.output += kTruncatedNote;
  return result;
}

CommandResult run_command(std::string const& command) {
  return run_program({"/bin/sh", "-c", command});
}

CommandResult run_command(std::string const& command, std::chrono::milliseconds timeout) {
  return run_program({"/bin/sh", "-c", command}, timeout);
}

std::string shell_quote(std::string const& word) {
  std::string quoted = "'";
  for (char const c : word) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

}  // namespace kopt
