#include "llm/json_io.hpp"

#include <optional>

namespace kopt::llm {
namespace {

void put_count(nlohmann::json& out, char const* name, std::optional<std::int64_t> const& value) {
  if (value) out[name] = *value;
}

Result<std::optional<std::int64_t>> get_count(nlohmann::json const& usage, char const* name,
                                              std::string const& where) {
  auto it = usage.find(name);
  if (it == usage.end() || it->is_null()) return std::optional<std::int64_t>();
  if (!it->is_number_integer()) {
    return make_error(ErrorCode::invalid_spec,
                      where + ": field usage." + name + ": expected an integer, got " + it->dump());
  }
  return std::optional<std::int64_t>(it->get<std::int64_t>());
}

}  // namespace

nlohmann::json request_to_json(LlmRequest const& request) {
  nlohmann::json messages = nlohmann::json::array();
  for (auto const& message : request.messages) {
    messages.push_back({{"role", message.role}, {"text", message.text}});
  }
  nlohmann::json out = {{"system", request.system}, {"messages", messages},
                        {"model", request.model},   {"max_tokens", request.max_tokens},
                        {"stop", request.stop},     {"sample", request.sample},
                        {"temperature", nullptr}};
  if (request.temperature) out["temperature"] = *request.temperature;
  return out;
}

nlohmann::json usage_to_json(LlmUsage const& usage) {
  nlohmann::json out = nlohmann::json::object();
  put_count(out, "input_tokens", usage.input_tokens);
  put_count(out, "output_tokens", usage.output_tokens);
  put_count(out, "cached_input_tokens", usage.cached_input_tokens);
  put_count(out, "reasoning_tokens", usage.reasoning_tokens);
  return out;
}

nlohmann::json reply_to_json(LlmReply const& reply) {
  nlohmann::json out = {{"text", reply.text},
                        {"finish_reason", reply.finish_reason},
                        {"usage", usage_to_json(reply.usage)},
                        {"latency_ms", reply.latency_ms},
                        {"backend", reply.backend},
                        {"model", reply.model},
                        {"attempts", reply.attempts},
                        {"cost_usd", nullptr}};
  if (reply.cost_usd) out["cost_usd"] = *reply.cost_usd;
  return out;
}

Result<LlmReply> reply_from_json(nlohmann::json const& json, std::string const& where) {
  if (!json.is_object())
    return make_error(ErrorCode::invalid_spec, where + ": expected a JSON object (a reply)");
  auto text = json.find("text");
  if (text == json.end() || !text->is_string()) {
    return make_error(ErrorCode::invalid_spec, where + ": field text: expected a string (the reply text)");
  }
  LlmReply reply;
  reply.text = text->get<std::string>();
  auto string_field = [&](char const* name, std::string& into) -> Status {
    auto it = json.find(name);
    if (it == json.end() || it->is_null()) return Ok{};
    if (!it->is_string()) {
      return make_error(ErrorCode::invalid_spec, where + ": field " + name + ": expected a string");
    }
    into = it->get<std::string>();
    return Ok{};
  };
  for (auto [name, into] : {std::pair{"finish_reason", &reply.finish_reason},
                            std::pair{"backend", &reply.backend}, std::pair{"model", &reply.model}}) {
    if (auto status = string_field(name, *into); !status) return status.error();
  }
  if (auto it = json.find("usage"); it != json.end() && !it->is_null()) {
    if (!it->is_object())
      return make_error(ErrorCode::invalid_spec, where + ": field usage: expected an object");
    std::optional<std::int64_t>* slots[] = {&reply.usage.input_tokens, &reply.usage.output_tokens,
                                            &reply.usage.cached_input_tokens, &reply.usage.reasoning_tokens};
    char const* names[] = {"input_tokens", "output_tokens", "cached_input_tokens", "reasoning_tokens"};
    for (std::size_t i = 0; i < 4; ++i) {
      auto count = get_count(*it, names[i], where);
      if (!count) return count.error();
      *slots[i] = *count;
    }
  }
  if (auto it = json.find("latency_ms"); it != json.end() && it->is_number())
    reply.latency_ms = it->get<double>();
  if (auto it = json.find("attempts"); it != json.end() && it->is_number_integer())
    reply.attempts = it->get<int>();
  if (auto it = json.find("cost_usd"); it != json.end() && it->is_number())
    reply.cost_usd = it->get<double>();
  return reply;
}

}  // namespace kopt::llm
