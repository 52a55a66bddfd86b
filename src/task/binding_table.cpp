// Adding roles to a task's [binding] table without rewriting the rest of task.toml (`kopt strategies TASK
// --write-binding`, docs/strategies.md "Binding").
#include "kopt/detail/toml.hpp"
#include "kopt/task.hpp"
#include "kopt/text.hpp"
#include "task/toml_text.hpp"

namespace kopt {
namespace {

std::string toml_value(std::string const& value) {
  return is_decimal_number(value) ? value : task_detail::toml_quote(value);
}

// The byte offset just past the line that opens the [binding] table, or npos.
std::size_t after_binding_header(std::string const& text) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    std::size_t const stop = end == std::string::npos ? text.size() : end;
    std::string_view line = trim(std::string_view(text).substr(start, stop - start));
    if (auto const hash = line.find('#'); hash != std::string_view::npos) line = trim(line.substr(0, hash));
    if (line.size() >= 2 && line.front() == '[' && line.back() == ']' && line[1] != '[' &&
        trim(line.substr(1, line.size() - 2)) == "binding") {
      return end == std::string::npos ? text.size() : end + 1;
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return std::string::npos;
}

}  // namespace

Result<BindingTableEdit> add_binding_entries(std::string const& toml_text,
                                             std::map<std::string, std::string, std::less<>> const& roles,
                                             std::string const& comment) {
  if (auto problem = detail::precheck_toml(toml_text)) {  // text toml++ 3.3 must not see
    return make_error(ErrorCode::invalid_spec, "task.toml is not valid TOML: line " +
                                                   std::to_string(problem->line) + ": " + problem->what);
  }
  toml::table root;
  try {
    root = toml::parse(toml_text);
  } catch (toml::parse_error const& e) {
    return make_error(ErrorCode::invalid_spec,
                      "task.toml is not valid TOML: " + std::string(e.description()));
  }
  BindingTableEdit edit;
  toml::table const* existing = nullptr;
  if (auto const* node = root.get("binding")) {
    existing = node->as_table();
    if (existing == nullptr || existing->is_inline()) {
      return make_error(ErrorCode::invalid_spec,
                        "task.toml defines 'binding' other than as a [binding] table; add the roles to it by "
                        "hand");
    }
  }
  std::string lines;
  for (auto const& [role, value] : roles) {
    if (existing != nullptr && existing->contains(role)) {
      edit.kept.push_back(role);
      continue;
    }
    std::string line = role + " = " + toml_value(value);
    edit.written.push_back(line);
    lines += line + "\n";
  }
  edit.text = toml_text;
  if (edit.written.empty()) return edit;
  if (existing == nullptr) {
    if (!edit.text.empty() && edit.text.back() != '\n') edit.text += '\n';
    edit.text += "\n[binding]  # " + comment + "\n" + lines;
  } else {
    auto const at = after_binding_header(edit.text);
    if (at == std::string::npos) {
      return make_error(
          ErrorCode::invalid_spec,
          "task.toml's [binding] table is written with dotted keys, not a [binding] header; add "
          "the roles to it by hand");
    }
    edit.text.insert(at, "# " + comment + "\n" + lines);
  }
  try {
    (void)toml::parse(edit.text);
  } catch (toml::parse_error const& e) {
    return make_error(ErrorCode::internal_error, "the edited task.toml does not parse (" +
                                                     std::string(e.description()) + "); nothing written");
  }
  return edit;
}

}  // namespace kopt
