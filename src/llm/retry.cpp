#include "llm/retry.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <locale>
#include <nlohmann/json.hpp>
#include <sstream>

#include "kopt/text.hpp"

namespace kopt::llm {
namespace {

bool contains(std::string const& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now) {
  std::string const text = std::string(kopt::trim(value));
  if (text.empty()) return std::nullopt;
  if (std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; })) {
    if (text.size() > 9) return std::nullopt;  // absurd; treated as unreadable
    return std::chrono::milliseconds(std::stoll(text) * 1000);
  }
  // IMF-fixdate, e.g. "Wed, 21 Oct 2015 07:28:00 GMT" (RFC 9110 section 5.6.7).
  std::tm tm{};
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  in >> std::get_time(&tm, "%a, %d %b %Y %H:%M:%S");
  if (in.fail()) return std::nullopt;
  std::time_t const at = ::timegm(&tm);
  if (at == static_cast<std::time_t>(-1)) return std::nullopt;
  auto const wait = std::chrono::system_clock::from_time_t(at) - now;
  return std::max(std::chrono::milliseconds(0), std::chrono::duration_cast<std::chrono::milliseconds>(wait));
}

std::chrono::milliseconds backoff_delay(int retry, LlmRetryPolicy const& policy, double uniform,
                                        std::optional<std::chrono::milliseconds> retry_after) {
  double const ceiling_ms =
      std::min(static_cast<double>(policy.max_delay.count()),
               static_cast<double>(policy.base_delay.count()) * std::pow(2.0, std::clamp(retry - 1, 0, 30)));
  auto delay = std::chrono::milliseconds(static_cast<long long>(std::clamp(uniform, 0.0, 1.0) * ceiling_ms));
  if (retry_after) delay = std::max(delay, *retry_after);
  return delay;
}

std::string error_body_message(std::string_view body) {
  auto json = nlohmann::json::parse(body, nullptr, false);
  if (!json.is_discarded() && json.is_object()) {
    auto error = json.find("error");
    if (error != json.end()) {
      if (error->is_string()) return error->get<std::string>();
      if (error->is_object()) {
        auto message = error->find("message");
        if (message != error->end() && message->is_string()) return message->get<std::string>();
      }
    }
    for (char const* name : {"message", "detail"}) {
      auto it = json.find(name);
      if (it != json.end() && it->is_string()) return it->get<std::string>();
    }
  }
  std::string text = std::string(kopt::trim(body));
  if (text.size() > 300) text = text.substr(0, 300) + "...";
  return text;
}

HttpFailure classify_http_failure(long status, std::string_view body, std::string const& model,
                                  std::string const& server_message) {
  std::string const said = server_message.empty() ? std::string() : ": " + server_message;
  std::string const http = "HTTP " + std::to_string(status);
  std::string const text = ascii_lower(body);
  bool const quota = contains(text, "insufficient_quota") || contains(text, "exceeded your current quota") ||
                     contains(text, "spend_limit") || contains(text, "spend limit") ||
                     contains(text, "credit balance is too low");
  if (quota) {
    return {false, ErrorCode::io_error,
            "the account's quota or spend limit is exhausted (" + http + ")" + said};
  }
  bool const model_unknown =
      status == 404 || contains(text, "model_not_found") ||
      (contains(text, "model") &&
       (contains(text, "not found") || contains(text, "does not exist") || contains(text, "unknown model")));
  if (model_unknown && status >= 400 && status < 500 && status != 429) {
    return {false, ErrorCode::not_found,
            "model '" + model + "' is unknown to the server, or the endpoint does not exist (" + http + ")" +
                said};
  }
  if (status == 401 || status == 403) {
    return {false, ErrorCode::invalid_argument,
            "the server rejected the API key (" + http + "); check the key's variable" + said};
  }
  bool const overloaded = contains(text, "overloaded");
  if (status == 408 || status == 409 || status == 429 || status >= 500 || overloaded) {
    std::string what = status == 429                 ? "rate limited (" + http + ")"
                       : status == 529 || overloaded ? "the server is overloaded (" + http + ")"
                                                     : "server error (" + http + ")";
    return {true, ErrorCode::io_error, what + said};
  }
  return {false, ErrorCode::invalid_argument, "the server rejected the request (" + http + ")" + said};
}

}  // namespace kopt::llm
