// When to retry an LLM call and how long to wait: full-jitter exponential backoff, Retry-After
// (seconds or an HTTP-date) as the least wait, and the HTTP statuses and error bodies that are final.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "kopt/llm.hpp"
#include "kopt/result.hpp"

namespace kopt::llm {

// Retry-After as a wait from `now`; nullopt when absent or unreadable. A date in the past waits 0.
std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now);

// The wait before retry number `retry` (1 for the first retry): uniform * min(max_delay,
// base_delay * 2^(retry-1)), at least `retry_after` when given. `uniform` is in [0, 1).
std::chrono::milliseconds backoff_delay(int retry, LlmRetryPolicy const& policy, double uniform,
                                        std::optional<std::chrono::milliseconds> retry_after);

// What an HTTP error status (with its body) means.
struct HttpFailure {
  bool retryable = false;
  ErrorCode code = ErrorCode::io_error;
  std::string what;  // e.g. "the server rejected the API key (HTTP 401)"
};
// `model` is the model asked for, `server_message` what the error body said (may be empty).
HttpFailure classify_http_failure(long status, std::string_view body, std::string const& model,
                                  std::string const& server_message);

// The message of an error body: error.message / error (string) / message / detail, else the body's start.
std::string error_body_message(std::string_view body);

}  // namespace kopt::llm
