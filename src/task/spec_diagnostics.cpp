#include "task/spec_diagnostics.hpp"

#include <algorithm>

namespace kopt::task_detail {

// Enough to fix a spec in one pass without flooding the terminal on a garbage file.
constexpr std::size_t kMaxMessages = 50;

void SpecDiagnostics::error(toml::source_region const& where, std::string_view field, std::string_view what,
                            std::string_view expected) {
  if (messages_.size() >= kMaxMessages) return;
  std::string message = origin_;
  if (where.begin) {
    message += ":" + std::to_string(where.begin.line) + ":" + std::to_string(where.begin.column);
  }
  message += ": ";
  if (!field.empty()) {
    message += field;
    message += ": ";
  }
  message += what;
  if (!expected.empty()) {
    message += "; expected ";
    message += expected;
  }
  bool seen =
      std::any_of(messages_.begin(), messages_.end(), [&](Message const& m) { return m.text == message; });
  if (!seen) messages_.push_back({where.begin.line, where.begin.column, std::move(message)});
}

Error SpecDiagnostics::to_error() const {
  auto sorted = messages_;
  std::stable_sort(sorted.begin(), sorted.end(), [](Message const& a, Message const& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
  });
  std::string joined;
  for (auto const& message : sorted) {
    if (!joined.empty()) joined += '\n';
    joined += message.text;
  }
  if (messages_.size() >= kMaxMessages) joined += "\n(further problems not shown)";
  return make_error(ErrorCode::invalid_spec, joined);
}

std::string_view type_name(toml::node const& node) noexcept {
  switch (node.type()) {
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::array: return "array";
    case toml::node_type::table: return "table";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

std::string quoted_list(std::vector<std::string> const& names) {
  std::string out;
  for (auto const& name : names) {
    if (!out.empty()) out += ", ";
    out += "'" + name + "'";
  }
  return out;
}

void check_keys(SpecDiagnostics& diag, toml::table const& table, std::string_view field_prefix,
                std::vector<std::string> const& allowed) {
  for (auto const& [key, node] : table) {
    if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end()) continue;
    diag.error(key.source(), join_field(field_prefix, key.str()),
               "unknown key '" + std::string(key.str()) + "'",
               allowed.empty() ? std::string("no keys here") : "one of " + quoted_list(allowed));
  }
}

bool is_todo(std::string_view text) noexcept {
  return text.substr(0, 4) == "TODO";
}

std::string join_field(std::string_view prefix, std::string_view key) {
  if (prefix.empty()) return std::string(key);
  std::string out(prefix);
  out += '.';
  out += key;
  return out;
}

}  // namespace kopt::task_detail
