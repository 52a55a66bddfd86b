#include "llm/protocol_support.hpp"

namespace kopt::llm {

Result<std::optional<std::int64_t>> optional_count(nlohmann::json const& object, char const* name,
                                                   std::string const& path) {
  if (!object.is_object()) return std::optional<std::int64_t>();
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) return std::optional<std::int64_t>();
  if (!it->is_number_integer()) {
    return make_error(ErrorCode::io_error, "field " + path + ": expected an integer, got " + it->dump());
  }
  return std::optional<std::int64_t>(it->get<std::int64_t>());
}

Result<std::string> optional_string(nlohmann::json const& object, char const* name, std::string const& path) {
  if (!object.is_object()) return std::string();
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) return std::string();
  if (!it->is_string())
    return make_error(ErrorCode::io_error, "field " + path + ": expected a string, got " + it->dump());
  return it->get<std::string>();
}

Status read_reply_tail(nlohmann::json const& reply, nlohmann::json const& holder, char const* finish_name,
                       std::string const& finish_path,
                       std::function<Status(nlohmann::json const&, LlmUsage&)> const& parse_usage,
                       LlmReply& out) {
  auto finish = optional_string(holder, finish_name, finish_path);
  if (!finish) return finish.error();
  out.finish_reason = *finish;
  auto model = optional_string(reply, "model", "model");
  if (!model) return model.error();
  out.model = *model;
  if (auto usage = reply.find("usage"); usage != reply.end() && usage->is_object())
    return parse_usage(*usage, out.usage);
  return Ok{};
}

}  // namespace kopt::llm
