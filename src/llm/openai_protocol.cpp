// OpenAI-compatible Chat Completions: POST {base}/chat/completions, Authorization: Bearer <key>.
#include "llm/http_backend.hpp"
#include "llm/protocol_support.hpp"

namespace kopt::llm {
namespace {

class OpenAiProtocol final : public Protocol {
 public:
  std::string_view name() const override { return "openai"; }

  std::string url(std::string const& base_url) const override { return base_url + "/chat/completions"; }

  std::vector<std::string> headers(std::string const& api_key) const override {
    std::vector<std::string> out = {"Content-Type: application/json", "Accept: application/json"};
    if (!api_key.empty()) out.push_back("Authorization: Bearer " + api_key);
    return out;
  }

  nlohmann::json body(LlmRequest const& request, std::string const& model) const override {
    nlohmann::json messages = nlohmann::json::array();
    if (!request.system.empty()) messages.push_back({{"role", "system"}, {"content", request.system}});
    for (auto const& message : request.messages) {
      messages.push_back({{"role", message.role}, {"content", message.text}});
    }
    nlohmann::json out = {
        {"model", model}, {"messages", messages}, {"max_tokens", request.max_tokens}, {"stream", false}};
    if (request.temperature) out["temperature"] = *request.temperature;
    if (!request.stop.empty()) out["stop"] = request.stop;
    return out;
  }

  Result<LlmReply> parse(nlohmann::json const& reply) const override {
    auto choices = reply.find("choices");
    if (choices == reply.end() || !choices->is_array()) {
      return make_error(ErrorCode::io_error, "field choices: expected an array");
    }
    if (choices->empty())
      return make_error(ErrorCode::io_error, "field choices: empty (the server gave no answer)");
    auto const& choice = (*choices)[0];
    if (!choice.is_object()) return make_error(ErrorCode::io_error, "field choices[0]: expected an object");
    auto message = choice.find("message");
    if (message == choice.end() || !message->is_object()) {
      return make_error(ErrorCode::io_error, "field choices[0].message: expected an object");
    }
    auto content = message->find("content");
    if (content == message->end() || !content->is_string()) {
      std::string got = content == message->end() ? "nothing" : content->dump();
      return make_error(ErrorCode::io_error,
                        "field choices[0].message.content: expected a string, got " + got);
    }
    LlmReply out;
    out.text = content->get<std::string>();
    if (auto tail =
            read_reply_tail(reply, choice, "finish_reason", "choices[0].finish_reason", parse_usage, out);
        !tail)
      return tail.error();
    return out;
  }

 private:
  static Status parse_usage(nlohmann::json const& usage, LlmUsage& out) {
    auto input = optional_count(usage, "prompt_tokens", "usage.prompt_tokens");
    auto output = optional_count(usage, "completion_tokens", "usage.completion_tokens");
    if (!input) return input.error();
    if (!output) return output.error();
    out.input_tokens = *input;
    out.output_tokens = *output;
    if (auto details = usage.find("prompt_tokens_details"); details != usage.end()) {
      auto cached = optional_count(*details, "cached_tokens", "usage.prompt_tokens_details.cached_tokens");
      if (!cached) return cached.error();
      out.cached_input_tokens = *cached;
    }
    if (!out.cached_input_tokens) {  // DeepSeek
      auto hit = optional_count(usage, "prompt_cache_hit_tokens", "usage.prompt_cache_hit_tokens");
      if (!hit) return hit.error();
      out.cached_input_tokens = *hit;
    }
    if (auto details = usage.find("completion_tokens_details"); details != usage.end()) {
      auto reasoning =
          optional_count(*details, "reasoning_tokens", "usage.completion_tokens_details.reasoning_tokens");
      if (!reasoning) return reasoning.error();
      out.reasoning_tokens = *reasoning;
    }
    return Ok{};
  }
};

}  // namespace

std::unique_ptr<Protocol> openai_protocol() {
  return std::make_unique<OpenAiProtocol>();
}

}  // namespace kopt::llm
