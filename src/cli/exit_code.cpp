#include "cli/exit_code.hpp"

namespace kopt::cli {

ExitCode exit_code_for(ErrorCode code, ErrorOrigin origin) noexcept {
  switch (code) {
    case ErrorCode::invalid_argument:
    case ErrorCode::invalid_spec: return ExitCode::usage;
    case ErrorCode::io_error:
    case ErrorCode::not_found: return origin == ErrorOrigin::input ? ExitCode::usage : ExitCode::environment;
    case ErrorCode::no_gpu:
    case ErrorCode::toolchain_error:
    case ErrorCode::worker_error: return ExitCode::environment;
    case ErrorCode::internal_error: return ExitCode::internal;
  }
  return ExitCode::internal;
}

ExitCode exit_code_for(EvalReport const& report) noexcept {
  if (report.candidates.empty()) return ExitCode::rejected;
  for (auto const& candidate : report.candidates) {
    if (candidate.status != CandidateStatus::ok) return ExitCode::rejected;
  }
  return ExitCode::success;
}

std::string_view exit_code_help() noexcept {
  return "Exit codes:\n"
         "  0  success: kopt ran and every candidate is ok\n"
         "  1  kopt ran, and at least one candidate was rejected (any status other than ok)\n"
         "  2  usage error or invalid input: bad arguments, malformed task spec, unreadable file\n"
         "  3  environment: no usable GPU, CUDA toolchain missing, GPU worker failed to start\n"
         "  4  internal error in kopt (please report it)\n";
}

}  // namespace kopt::cli
