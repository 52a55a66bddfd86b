// Prompt templates: finding the prompts folder, reading prompts/<role>.v1.md into its system and user parts,
// and filling {{placeholders}} and {{#if name}} ... {{/if}} blocks, with errors that name file and line.
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "kopt/llm_roles.hpp"
#include "kopt/text.hpp"
#include "kopt/toolchain.hpp"

namespace kopt {
namespace {

namespace fs = std::filesystem;

std::string location(fs::path const& file, int line) {
  return file.string() + ":" + std::to_string(line);
}

Error template_error(fs::path const& file, int line, std::string const& what) {
  return make_error(ErrorCode::invalid_spec, location(file, line) + ": " + what);
}

// The name of a conditional line "{{#if name}}", or nullopt.
std::optional<std::string_view> if_name(std::string_view line) {
  auto const t = trim(line);
  constexpr std::string_view open = "{{#if ";
  if (t.size() < open.size() + 2 || t.substr(0, open.size()) != open || t.substr(t.size() - 2) != "}}") {
    return std::nullopt;
  }
  return trim(t.substr(open.size(), t.size() - open.size() - 2));
}

bool is_known(std::string_view name) {
  for (auto const& known : prompt_placeholders()) {
    if (known == name) return true;
  }
  return false;
}

// Substitutes one template line (without its newline) into `out`.
Status fill_line(std::string_view line, std::map<std::string, std::string> const& values,
                 fs::path const& file, int line_number, std::string& out) {
  std::size_t pos = 0;
  while (pos < line.size()) {
    auto const open = line.find("{{", pos);
    if (open == std::string_view::npos) {
      out.append(line.substr(pos));
      break;
    }
    out.append(line.substr(pos, open - pos));
    auto const close = line.find("}}", open + 2);
    if (close == std::string_view::npos) {
      return template_error(file, line_number, "'{{' is not closed on its line; expected {{name}}");
    }
    auto const name = std::string(trim(line.substr(open + 2, close - open - 2)));
    if (!is_known(name)) {
      std::string list;
      for (auto const& known : prompt_placeholders()) list += (list.empty() ? "" : ", ") + known;
      return template_error(file, line_number,
                            "unknown placeholder '{{" + name + "}}'; expected one of " + list);
    }
    auto const it = values.find(name);
    if (it == values.end()) {
      return template_error(file, line_number, "no value for placeholder '{{" + name + "}}'");
    }
    out += it->second;
    pos = close + 2;
  }
  return Ok{};
}

}  // namespace

std::string_view to_string(PromptRole role) noexcept {
  switch (role) {
    case PromptRole::generator: return "generator";
    case PromptRole::planner: return "planner";
    case PromptRole::coder: return "coder";
    case PromptRole::judge: return "judge";
  }
  return "unknown";
}

std::string_view to_string(EditFormat format) noexcept {
  switch (format) {
    case EditFormat::whole_file: return "whole_file";
    case EditFormat::search_replace: return "search_replace";
  }
  return "unknown";
}

std::size_t estimate_tokens(std::string_view text) noexcept {
  return (text.size() + 3) / 4;
}

std::vector<std::string> const& prompt_placeholders() {
  static std::vector<std::string> const names = {"task_name",
                                                 "description",
                                                 "family",
                                                 "signature",
                                                 "dtype",
                                                 "candidate_form",
                                                 "sizes",
                                                 "size_count",
                                                 "tolerance",
                                                 "reference_path",
                                                 "reference_source",
                                                 "strategy_name",
                                                 "strategy_description",
                                                 "strategy_applies_when",
                                                 "options",
                                                 "kernel_source",
                                                 "times",
                                                 "findings",
                                                 "siblings",
                                                 "errors",
                                                 "plan",
                                                 "output_format"};
  return names;
}

Result<fs::path> find_prompts_dir(std::optional<fs::path> const& explicit_dir) {
  static DataFolder const prompts{"prompts",
                                  "generator.v1.md",
                                  "KOPT_PROMPTS",
                                  "a prompts folder",
                                  "the prompt templates were not found",
                                  "pass the folder explicitly or set KOPT_PROMPTS"};
  return find_data_folder(prompts, explicit_dir);
}

Result<std::string> render_prompt_text(std::string_view text,
                                       std::map<std::string, std::string> const& values, fs::path const& file,
                                       int first_line) {
  std::string out;
  int open_if = 0;  // line of the open {{#if}}, 0 when none (an int: GCC 12 misreads an optional here)
  bool keep = true;
  int line_number = first_line;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    bool const has_newline = end != std::string_view::npos;
    if (!has_newline) end = text.size();
    auto const line = text.substr(pos, end - pos);
    pos = has_newline ? end + 1 : end;
    int const this_line = line_number++;
    if (auto name = if_name(line)) {
      if (open_if != 0) {
        return template_error(file, this_line,
                              "'{{#if}}' inside the '{{#if}}' of line " + std::to_string(open_if) +
                                  "; conditionals do not nest");
      }
      if (!is_known(*name)) {
        return template_error(file, this_line,
                              "unknown placeholder '" + std::string(*name) + "' in '{{#if}}'");
      }
      open_if = this_line;
      auto const it = values.find(std::string(*name));
      keep = it != values.end() && it->second.find_first_not_of(" \t\r\n") != std::string::npos;
      continue;
    }
    if (trim(line) == "{{/if}}") {
      if (open_if == 0) return template_error(file, this_line, "'{{/if}}' without an open '{{#if name}}'");
      open_if = 0;
      keep = true;
      continue;
    }
    std::string filled;
    if (auto status = fill_line(line, values, file, this_line, filled); !status) return status.error();
    if (!keep) continue;
    out += filled;
    if (has_newline) out += '\n';
  }
  if (open_if != 0) return template_error(file, open_if, "'{{#if}}' is not closed by a '{{/if}}' line");
  return out;
}

Result<PromptTemplate> parse_prompt_template(std::string_view text, fs::path const& file) {
  PromptTemplate result;
  result.file = file;
  std::size_t system_start = std::string_view::npos;
  std::size_t system_end = 0;
  std::size_t user_start = std::string_view::npos;
  int line_number = 1;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    auto const next = end == std::string_view::npos ? text.size() : end + 1;
    if (end == std::string_view::npos) end = text.size();
    auto const line = trim(text.substr(pos, end - pos));
    if (line == "[[system]]") {
      if (system_start != std::string_view::npos) {
        return template_error(file, line_number, "a second [[system]] line");
      }
      system_start = next;
      result.system_line = line_number + 1;
    } else if (line == "[[user]]") {
      if (system_start == std::string_view::npos) {
        return template_error(file, line_number, "[[user]] before [[system]]; expected [[system]] first");
      }
      if (user_start != std::string_view::npos)
        return template_error(file, line_number, "a second [[user]] line");
      system_end = pos;
      user_start = next;
      result.user_line = line_number + 1;
    }
    pos = next;
    ++line_number;
  }
  if (system_start == std::string_view::npos || user_start == std::string_view::npos) {
    return template_error(file, 1, "expected a line [[system]] and, after it, a line [[user]]");
  }
  // Leading blank lines stay (the line numbers of errors count them); the builder trims the rendered text.
  result.system = std::string(text.substr(system_start, system_end - system_start));
  result.user = std::string(text.substr(user_start));
  // Check every placeholder now, with every conditional taken.
  std::map<std::string, std::string> all;
  for (auto const& name : prompt_placeholders()) all[name] = "x";
  if (auto r = render_prompt_text(result.system, all, file, result.system_line); !r) return r.error();
  if (auto r = render_prompt_text(result.user, all, file, result.user_line); !r) return r.error();
  return result;
}

Result<PromptTemplate> load_prompt_template(fs::path const& dir, PromptRole role) {
  auto const file = dir / (std::string(to_string(role)) + ".v" + std::to_string(kPromptVersion) + ".md");
  std::ifstream in(file, std::ios::binary);
  if (!in) return make_error(ErrorCode::io_error, file.string() + ": cannot read the prompt template");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_prompt_template(text.str(), file);
}

}  // namespace kopt
