// One HTTP POST through libcurl with a connect timeout, an idle-read timeout (no byte for N s aborts)
// and an overall timeout. Transport failures are classified so that the caller can decide on a retry.
#pragma once

#include <map>
#include <string>
#include <variant>
#include <vector>

#include "kopt/llm.hpp"

namespace kopt::llm {

struct HttpPost {
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;
  LlmTimeouts timeouts;
};

struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers;  // names in lower case; the last value of a repeated header
  std::string body;
};

enum class TransportFailure {
  cannot_connect,  // refused, unresolvable host, no route
  timed_out,       // connect or overall timeout
  stalled,         // the idle-read timeout fired
  connection_cut,  // the connection closed before the reply was complete
  other,
};

struct TransportError {
  TransportFailure kind = TransportFailure::other;
  std::string message;  // libcurl's words; never contains the request headers
};

std::variant<HttpResponse, TransportError> http_post(HttpPost const& post);

}  // namespace kopt::llm
