// The lines of a text (without their '\n'), as views into it; for the prompt builder and the reply parsers.
#pragma once

#include <string_view>
#include <vector>

#include "kopt/text.hpp"

namespace kopt::detail {

inline std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

// A line without its trailing '\r' (replies and sources may come with CRLF line ends).
inline std::string_view strip_cr(std::string_view line) {
  return !line.empty() && line.back() == '\r' ? line.substr(0, line.size() - 1) : line;
}

// The number of backticks of a Markdown fence line (at most 3 spaces of indentation, no backtick
// after them), 0 when it is none; `info` (when given) receives the text after the backticks.
inline std::size_t fence_length(std::string_view line, std::string_view* info) {
  std::size_t indent = 0;
  while (indent < line.size() && indent < 3 && line[indent] == ' ') ++indent;
  std::size_t n = 0;
  while (indent + n < line.size() && line[indent + n] == '`') ++n;
  if (n < 3) return 0;
  auto const rest = line.substr(indent + n);
  if (rest.find('`') != std::string_view::npos) return 0;  // inline code, not a fence
  if (info != nullptr) *info = rest;
  return n;
}

// A SEARCH/REPLACE marker line: 5 to 9 `c` characters, then `word` after white space (or nothing
// when `word` is empty), then only white space.
inline bool is_edit_marker(std::string_view line, char c, std::string_view word) {
  line = trim_end(line);
  std::size_t n = 0;
  while (n < line.size() && line[n] == c) ++n;
  if (n < 5 || n > 9) return false;
  auto rest = line.substr(n);
  if (word.empty()) return rest.empty();
  auto const first = rest.find_first_not_of(" \t");
  if (first == std::string_view::npos || first == 0) return false;
  return rest.substr(first) == word;
}

}  // namespace kopt::detail
