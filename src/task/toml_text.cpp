#include "task/toml_text.hpp"

namespace kopt::task_detail {

std::string toml_quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace kopt::task_detail
