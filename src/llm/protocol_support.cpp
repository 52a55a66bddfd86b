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

}  // namespace kopt::llm
