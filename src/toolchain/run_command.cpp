// run_command: a shell command line run to completion through ChildProcess, for the call sites that
// build a command line (tool probes, nvcc, cuobjdump). /bin/sh leads a process group of its own so that
// a timeout kills the whole tree it started; stdout and stderr are one stream, as on a terminal.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "kopt/child_process.hpp"
#include "kopt/toolchain.hpp"

namespace kopt {
namespace {

constexpr std::size_t kMaxOutputBytes = std::size_t{1} << 20;  // 1 MiB
constexpr char kTruncatedNote[] = "\n[kopt: output truncated at 1 MiB]\n";

CommandResult run_shell(std::string const& command, std::optional<std::chrono::milliseconds> timeout) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", command};
  spec.stderr_target = StderrTarget::with_stdout;
  spec.own_process_group = true;
  CommunicateOptions options;
  options.timeout = timeout;
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

}  // namespace

CommandResult run_command(std::string const& command) {
  return run_shell(command, std::nullopt);
}

CommandResult run_command(std::string const& command, std::chrono::milliseconds timeout) {
  return run_shell(command, std::max(timeout, std::chrono::milliseconds(0)));
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
