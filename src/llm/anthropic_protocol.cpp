// Anthropic Messages API: POST {base}/v1/messages, x-api-key, anthropic-version.
#include "llm/http_backend.hpp"
#include "llm/protocol_support.hpp"

namespace kopt::llm {
namespace {

class AnthropicProtocol final : public Protocol {
 public:
  explicit AnthropicProtocol(std::string version) : version_(std::move(version)) {}

  std::string_view name() const override { return "anthropic"; }

  std::string url(std::string const& base_url) const override { return base_url + "/v1/messages"; }

  std::vector<std::string> headers(std::string const& api_key) const override {
    std::vector<std::string> out = {"Content-Type: application/json", "Accept: application/json",
                                    "anthropic-version: " + version_};
    if (!api_key.empty()) out.push_back("x-api-key: " + api_key);
    return out;
  }

  nlohmann::json body(LlmRequest const& request, std::string const& model) const override {
    nlohmann::json messages = nlohmann::json::array();
    for (auto const& message : request.messages) {
      messages.push_back({{"role", message.role}, {"content", message.text}});
    }
    nlohmann::json out = {{"model", model}, {"messages", messages}, {"max_tokens", request.max_tokens}};
    if (!request.system.empty()) out["system"] = request.system;
    if (request.temperature) out["temperature"] = *request.temperature;
    if (!request.stop.empty()) out["stop_sequences"] = request.stop;
    return out;
  }

  Result<LlmReply> parse(nlohmann::json const& reply) const override {
    auto content = reply.find("content");
    if (content == reply.end() || !content->is_array()) {
      return make_error(ErrorCode::io_error, "field content: expected an array of content blocks");
    }
    LlmReply out;
    bool any_text = false;
    for (std::size_t i = 0; i < content->size(); ++i) {
      auto const& block = (*content)[i];
      auto type = optional_string(block, "type", "content[" + std::to_string(i) + "].type");
      if (!type) return type.error();
      if (*type != "text") continue;  // thinking, tool_use, ...
      auto text = block.find("text");
      if (text == block.end() || !text->is_string()) {
        return make_error(ErrorCode::io_error,
                          "field content[" + std::to_string(i) + "].text: expected a string");
      }
      out.text += text->get<std::string>();
      any_text = true;
    }
    if (!any_text)
      return make_error(ErrorCode::io_error, "field content: no text block (the model gave no text)");
    if (auto tail = read_reply_tail(reply, reply, "stop_reason", "stop_reason", parse_usage, out); !tail)
      return tail.error();
    return out;
  }

 private:
  // Anthropic's input_tokens leaves out the cached parts; kopt's input_tokens counts the whole prompt.
  static Status parse_usage(nlohmann::json const& usage, LlmUsage& out) {
    auto input = optional_count(usage, "input_tokens", "usage.input_tokens");
    auto output = optional_count(usage, "output_tokens", "usage.output_tokens");
    auto read = optional_count(usage, "cache_read_input_tokens", "usage.cache_read_input_tokens");
    auto written = optional_count(usage, "cache_creation_input_tokens", "usage.cache_creation_input_tokens");
    for (auto const* count : {&input, &output, &read, &written}) {
      if (!*count) return count->error();
    }
    if (*input) out.input_tokens = **input + read->value_or(0) + written->value_or(0);
    out.output_tokens = *output;
    out.cached_input_tokens = *read;
    return Ok{};
  }

  std::string version_;
};

}  // namespace

std::unique_ptr<Protocol> anthropic_protocol(std::string version) {
  return std::make_unique<AnthropicProtocol>(std::move(version));
}

}  // namespace kopt::llm
