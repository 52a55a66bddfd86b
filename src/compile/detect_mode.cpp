// detect_mode: does a source define `entry` as a __global__ kernel or as a host launcher?
// A light scan, not a C++ parser: comments, string literals and preprocessor lines are blanked, then
// each definition `<prefix> entry(<params>) {` is classified by the specifiers in its prefix.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "kopt/compile.hpp"

namespace kopt {
namespace {

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Replaces comments, string/char literal contents and preprocessor lines by spaces (newlines kept).
std::string blank_non_code(std::string const& source) {
  std::string out = source;
  std::size_t i = 0;
  bool line_start = true;
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < out.size(); ++k) {
      if (out[k] != '\n') out[k] = ' ';
    }
  };
  while (i < source.size()) {
    char const c = source[i];
    if (line_start && c == '#') {
      std::size_t end = i;
      while (end < source.size() && !(source[end] == '\n' && (end == 0 || source[end - 1] != '\\'))) ++end;
      blank(i, end);
      i = end;
      continue;
    }
    if (c == '\n') {
      line_start = true;
      ++i;
      continue;
    }
    if (c != ' ' && c != '\t') line_start = false;
    if (c == '/' && i + 1 < source.size() && source[i + 1] == '/') {
      std::size_t const end = source.find('\n', i);
      std::size_t const stop = end == std::string::npos ? source.size() : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c == '/' && i + 1 < source.size() && source[i + 1] == '*') {
      std::size_t const end = source.find("*/", i + 2);
      std::size_t const stop = end == std::string::npos ? source.size() : end + 2;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c == '"' || c == '\'') {
      std::size_t end = i + 1;
      while (end < source.size() && source[end] != c && source[end] != '\n') {
        end += source[end] == '\\' ? 2 : 1;
      }
      blank(i + 1, end);
      i = std::min(end + 1, source.size());
      continue;
    }
    ++i;
  }
  return out;
}

std::vector<std::string> identifiers_in(std::string const& text) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < text.size()) {
    if (is_identifier_char(text[i]) && std::isdigit(static_cast<unsigned char>(text[i])) == 0) {
      std::size_t const start = i;
      while (i < text.size() && is_identifier_char(text[i])) ++i;
      words.push_back(text.substr(start, i - start));
    } else {
      ++i;
    }
  }
  return words;
}

std::size_t skip_spaces(std::string const& text, std::size_t i) {
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])) != 0) ++i;
  return i;
}

// Index just past the bracket matching text[open] ('(' or '<'), or npos.
std::size_t skip_balanced(std::string const& text, std::size_t open, char opening, char closing) {
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == opening) ++depth;
    if (text[i] == closing && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

enum class DefinitionKind { none, kernel, host };

// Classifies the occurrence of the entry name at [pos, pos + length) in blanked code.
DefinitionKind classify(std::string const& code, std::size_t pos, std::size_t length) {
  std::size_t i = skip_spaces(code, pos + length);
  if (i < code.size() && code[i] == '<') {  // explicit specialisation: name<...>(...)
    i = skip_balanced(code, i, '<', '>');
    if (i == std::string::npos) return DefinitionKind::none;
    i = skip_spaces(code, i);
  }
  if (i >= code.size() || code[i] != '(') return DefinitionKind::none;
  i = skip_balanced(code, i, '(', ')');
  if (i == std::string::npos) return DefinitionKind::none;
  // Allow trailing specifiers (noexcept, const) before the body.
  i = skip_spaces(code, i);
  while (i < code.size() && is_identifier_char(code[i])) {
    while (i < code.size() && is_identifier_char(code[i])) ++i;
    i = skip_spaces(code, i);
  }
  if (i >= code.size() || code[i] != '{') return DefinitionKind::none;  // a call or a prototype

  std::size_t const boundary = code.find_last_of(";{}", pos);
  std::size_t const prefix_start = boundary == std::string::npos ? 0 : boundary + 1;
  std::vector<std::string> const prefix = identifiers_in(code.substr(prefix_start, pos - prefix_start));
  bool global = false;
  bool device = false;
  bool host = false;
  for (auto const& word : prefix) {
    if (word == "__global__") global = true;
    if (word == "__device__") device = true;
    if (word == "__host__") host = true;
    if (word == "return" || word == "else" || word == "new") return DefinitionKind::none;
  }
  if (global) return DefinitionKind::kernel;
  if (prefix.empty() || (device && !host)) return DefinitionKind::none;  // no return type / device-only
  return DefinitionKind::host;
}

// "ns::kernel<128>" -> "kernel": the name as it appears at its definition.
std::string plain_name(std::string const& entry) {
  std::string name = entry.substr(0, entry.find('<'));
  std::size_t const scope = name.rfind("::");
  if (scope != std::string::npos) name = name.substr(scope + 2);
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())) != 0) name.pop_back();
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front())) != 0) name.erase(0, 1);
  return name;
}

}  // namespace

std::optional<CandidateMode> detect_mode(std::string const& source, std::string const& entry) {
  std::string const name = plain_name(entry);
  if (name.empty()) return std::nullopt;
  std::string const code = blank_non_code(source);
  bool kernel = false;
  bool host = false;
  for (std::size_t pos = code.find(name); pos != std::string::npos; pos = code.find(name, pos + 1)) {
    bool const starts_word = pos == 0 || !is_identifier_char(code[pos - 1]);
    bool const ends_word = pos + name.size() >= code.size() || !is_identifier_char(code[pos + name.size()]);
    if (!starts_word || !ends_word) continue;
    switch (classify(code, pos, name.size())) {
      case DefinitionKind::kernel: kernel = true; break;
      case DefinitionKind::host: host = true; break;
      case DefinitionKind::none: break;
    }
  }
  if (kernel) return CandidateMode::kernel;
  if (host) return CandidateMode::launcher;
  return std::nullopt;
}

}  // namespace kopt
