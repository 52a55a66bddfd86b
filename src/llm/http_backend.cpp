#include "llm/http_backend.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <variant>

#include "llm/http_transport.hpp"
#include "llm/retry.hpp"

namespace kopt::llm {
namespace {

std::string seconds_text(std::chrono::milliseconds ms) {
  auto const tenths = (ms.count() + 50) / 100;
  std::string text = std::to_string(tenths / 10);
  if (tenths % 10 != 0) text += "." + std::to_string(tenths % 10);
  return text + " s";
}

struct AttemptFailure {
  bool retryable = false;
  ErrorCode code = ErrorCode::io_error;
  std::string what;
  std::optional<std::chrono::milliseconds> retry_after;
};

class HttpBackend final : public LlmBackend {
 public:
  HttpBackend(std::unique_ptr<Protocol> protocol, HttpSettings settings, LlmHooks hooks)
      : protocol_(std::move(protocol)), settings_(std::move(settings)), hooks_(std::move(hooks)) {}

  std::string identity() const override {
    return std::string(protocol_->name()) + " " + settings_.base_url + " " + settings_.model;
  }

  Result<LlmReply> complete(LlmRequest const& request) override {
    auto result = complete_unredacted(request);
    if (result) return result;
    Error error = std::move(result).error();
    error.message = redact_secret(std::move(error.message), settings_.api_key);
    return error;
  }

 private:
  Result<LlmReply> complete_unredacted(LlmRequest const& request) {
    std::string const model = request.model.empty() ? settings_.model : request.model;
    std::string const url = protocol_->url(settings_.base_url);
    HttpPost post{url, protocol_->headers(settings_.api_key), protocol_->body(request, model).dump(),
                  settings_.timeouts};
    std::string const prefix = "LLM request to " + url;
    auto const started = std::chrono::steady_clock::now();
    int const max_attempts = std::max(1, settings_.retries.max_attempts);
    AttemptFailure failure;
    for (int attempt = 1; attempt <= max_attempts; ++attempt) {
      auto outcome = http_post(post);
      if (auto const* response = std::get_if<HttpResponse>(&outcome)) {
        if (response->status >= 200 && response->status < 300) {
          auto reply = parse_reply(*response, model, prefix);
          if (!reply) return reply;
          reply->attempts = attempt;
          reply->latency_ms = elapsed_ms(started);
          return reply;
        }
        failure = from_status(*response, model);
      } else {
        failure = from_transport(std::get<TransportError>(outcome));
      }
      if (!failure.retryable) return make_error(failure.code, prefix + " failed: " + failure.what);
      if (attempt == max_attempts) break;
      if (failure.retry_after && *failure.retry_after > settings_.retries.max_retry_after) {
        return make_error(failure.code, prefix + " failed: " + failure.what +
                                            "; the server asks to retry after " +
                                            seconds_text(*failure.retry_after) + ", longer than the " +
                                            seconds_text(settings_.retries.max_retry_after) + " kopt waits");
      }
      auto const delay = backoff_delay(attempt, settings_.retries, uniform(), failure.retry_after);
      sleep(delay);
    }
    return make_error(failure.code, prefix + " failed after " + std::to_string(max_attempts) +
                                        (max_attempts == 1 ? " attempt: " : " attempts: ") + failure.what);
  }

  Result<LlmReply> parse_reply(HttpResponse const& response, std::string const& model,
                               std::string const& prefix) const {
    auto json = nlohmann::json::parse(response.body, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
      std::string start = response.body.substr(0, 200);
      return make_error(ErrorCode::io_error, prefix + ": the reply (HTTP " + std::to_string(response.status) +
                                                 ") is not a JSON object: '" + start + "'");
    }
    if (auto error = json.find("error"); error != json.end() && !error->is_null()) {
      return make_error(ErrorCode::io_error,
                        prefix + ": the server replied with an error: " + error_body_message(response.body));
    }
    auto reply = protocol_->parse(json);
    if (!reply) {
      return make_error(ErrorCode::io_error, prefix + ": malformed reply: " + reply.error().message);
    }
    reply->backend = std::string(protocol_->name());
    if (reply->model.empty()) reply->model = model;
    reply->cost_usd = settings_.prices.cost(model, reply->usage);
    if (!reply->cost_usd && reply->model != model)
      reply->cost_usd = settings_.prices.cost(reply->model, reply->usage);
    return reply;
  }

  AttemptFailure from_status(HttpResponse const& response, std::string const& model) const {
    auto const classified =
        classify_http_failure(response.status, response.body, model, error_body_message(response.body));
    AttemptFailure failure{classified.retryable, classified.code, classified.what, std::nullopt};
    if (classified.code == ErrorCode::invalid_argument &&
        (response.status == 401 || response.status == 403)) {
      failure.what += settings_.key_source.empty() ? " (no API key was given)"
                                                   : " (key from " + settings_.key_source + ")";
    }
    if (auto it = response.headers.find("retry-after"); it != response.headers.end()) {
      failure.retry_after = parse_retry_after(it->second, now());
    }
    return failure;
  }

  AttemptFailure from_transport(TransportError const& error) const {
    switch (error.kind) {
      case TransportFailure::cannot_connect:
        return {
            true,
            ErrorCode::io_error,
            "cannot connect to " + settings_.base_url + ": is the server running? (" + error.message + ")",
            {}};
      case TransportFailure::stalled:
        return {
            true,
            ErrorCode::io_error,
            "no data from the server for " + seconds_text(settings_.timeouts.idle) + " (the idle timeout)",
            {}};
      case TransportFailure::timed_out:
        return {
            true,
            ErrorCode::io_error,
            "no complete reply within " + seconds_text(settings_.timeouts.overall) + " (the overall timeout)",
            {}};
      case TransportFailure::connection_cut:
        return {true,
                ErrorCode::io_error,
                "the connection was cut before the reply was complete (" + error.message + ")",
                {}};
      case TransportFailure::other: break;
    }
    return {false, ErrorCode::io_error, error.message, {}};
  }

  static double elapsed_ms(std::chrono::steady_clock::time_point started) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  }
  double uniform() const { return hooks_.uniform ? hooks_.uniform() : 0.5; }
  void sleep(std::chrono::milliseconds delay) const {
    if (hooks_.sleep) {
      hooks_.sleep(delay);
    } else {
      std::this_thread::sleep_for(delay);
    }
  }
  std::chrono::system_clock::time_point now() const {
    return hooks_.now ? hooks_.now() : std::chrono::system_clock::now();
  }

  std::unique_ptr<Protocol> protocol_;
  HttpSettings settings_;
  LlmHooks hooks_;
};

}  // namespace

std::unique_ptr<LlmBackend> make_http_backend(std::unique_ptr<Protocol> protocol, HttpSettings settings,
                                              LlmHooks hooks) {
  return std::make_unique<HttpBackend>(std::move(protocol), std::move(settings), std::move(hooks));
}

}  // namespace kopt::llm
