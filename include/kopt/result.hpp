// Status-plus-message results used at every module boundary.
// kopt reports user-facing failures (bad spec, missing tool, no GPU) as values, never exceptions;
// exceptions are reserved for programmer errors (broken invariants).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace kopt {

// Why kopt itself could not do what was asked. Distinct from CandidateStatus, which is a verdict
// about a candidate kernel: a run can succeed in rejecting a candidate.
enum class ErrorCode {
  invalid_argument,  // a command-line value or API argument is wrong
  invalid_spec,      // a task spec is malformed (message names file, field and what was expected)
  io_error,          // a file could not be read or written
  not_found,         // a file, tool or symbol is missing
  no_gpu,            // the operation needs a CUDA GPU and none is usable
  toolchain_error,   // nvcc / NVRTC / driver problem not caused by the candidate
  worker_error,      // the GPU worker failed in a way not attributable to the candidate
  internal_error,    // a bug in kopt
};

const char* to_string(ErrorCode code) noexcept;

struct Error {
  ErrorCode code = ErrorCode::internal_error;
  std::string message;
};

// Result<T> holds either a value or an Error. A small stand-in for std::expected (C++23).
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : data_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const noexcept { return std::holds_alternative<T>(data_); }
  explicit operator bool() const noexcept { return ok(); }

  T& value() & { return std::get<T>(data_); }
  T const& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }
  T& operator*() & { return value(); }
  T const& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  T const* operator->() const { return &value(); }

  Error const& error() const& { return std::get<Error>(data_); }
  Error&& error() && { return std::get<Error>(std::move(data_)); }

 private:
  std::variant<T, Error> data_;
};

// Result<void>: success or an Error.
struct Ok {};
using Status = Result<Ok>;

inline Error make_error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

}  // namespace kopt
