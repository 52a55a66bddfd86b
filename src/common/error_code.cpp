#include "kopt/result.hpp"

namespace kopt {

const char* to_string(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::invalid_argument: return "invalid_argument";
    case ErrorCode::invalid_spec: return "invalid_spec";
    case ErrorCode::io_error: return "io_error";
    case ErrorCode::not_found: return "not_found";
    case ErrorCode::no_gpu: return "no_gpu";
    case ErrorCode::toolchain_error: return "toolchain_error";
    case ErrorCode::worker_error: return "worker_error";
    case ErrorCode::internal_error: return "internal_error";
  }
  return "internal_error";
}

}  // namespace kopt
