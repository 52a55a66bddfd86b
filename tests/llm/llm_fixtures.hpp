// Helpers of the LLM tests: scripted reply bodies, a recording sleeper, a fake backend.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kopt/llm.hpp"

namespace kopt::test {

inline std::string openai_body(std::string const& text, int prompt = 120, int completion = 30,
                               int cached = -1, int reasoning = -1) {
  nlohmann::json usage = {
      {"prompt_tokens", prompt}, {"completion_tokens", completion}, {"total_tokens", prompt + completion}};
  if (cached >= 0) usage["prompt_tokens_details"] = {{"cached_tokens", cached}};
  if (reasoning >= 0) usage["completion_tokens_details"] = {{"reasoning_tokens", reasoning}};
  nlohmann::json body = {
      {"id", "chatcmpl-1"},
      {"object", "chat.completion"},
      {"model", "served-model"},
      {"choices",
       {{{"index", 0}, {"message", {{"role", "assistant"}, {"content", text}}}, {"finish_reason", "stop"}}}},
      {"usage", usage}};
  return body.dump();
}

inline std::string anthropic_body(std::string const& text, int input = 100, int output = 20,
                                  int cache_read = 0) {
  nlohmann::json body = {{"id", "msg_1"},
                         {"type", "message"},
                         {"role", "assistant"},
                         {"model", "claude-test"},
                         {"content", {{{"type", "text"}, {"text", text}}}},
                         {"stop_reason", "end_turn"},
                         {"usage",
                          {{"input_tokens", input},
                           {"output_tokens", output},
                           {"cache_read_input_tokens", cache_read},
                           {"cache_creation_input_tokens", 0}}}};
  return body.dump();
}

inline LlmRequest simple_request(std::string const& text = "Make this kernel faster.") {
  LlmRequest request;
  request.system = "You are a CUDA expert.";
  request.messages = {{"user", text}};
  request.max_tokens = 256;
  request.temperature = 0.2;
  return request;
}

// Hooks whose sleeps are recorded instead of slept, with a fixed jitter draw.
struct FakeTime {
  std::vector<std::chrono::milliseconds> sleeps;
  double uniform = 0.0;
  std::chrono::system_clock::time_point now = std::chrono::system_clock::from_time_t(1'700'000'000);
  LlmHooks hooks() {
    LlmHooks out;
    out.sleep = [this](std::chrono::milliseconds delay) { sleeps.push_back(delay); };
    out.uniform = [this] { return uniform; };
    out.now = [this] { return now; };
    out.getenv = [](std::string const&) -> std::optional<std::string> { return std::nullopt; };
    return out;
  }
};

// Counts calls; answers "reply <n>" costing `cost` each (nullopt: unknown).
class FakeBackend final : public LlmBackend {
 public:
  explicit FakeBackend(std::optional<double> cost = 0.25, std::string identity = "fake")
      : cost_(cost), identity_(std::move(identity)) {}
  Result<LlmReply> complete(LlmRequest const& request) override {
    ++*calls_;
    LlmReply reply;
    reply.text = "reply " + std::to_string(*calls_) + " to " + request.messages.at(0).text;
    reply.finish_reason = "stop";
    reply.backend = "fake";
    reply.model = request.model;
    reply.attempts = 1;
    reply.usage.input_tokens = 10;
    reply.usage.output_tokens = 5;
    reply.cost_usd = cost_;
    return reply;
  }
  std::string identity() const override { return identity_; }
  std::shared_ptr<int> calls() const { return calls_; }

 private:
  std::optional<double> cost_;
  std::string identity_;
  std::shared_ptr<int> calls_ = std::make_shared<int>(0);
};

}  // namespace kopt::test
