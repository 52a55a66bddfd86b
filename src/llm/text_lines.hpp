// The lines of a text (without their '\n'), as views into it; for the prompt builder and the reply parsers.
#pragma once

#include <string_view>
#include <vector>

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

}  // namespace kopt::detail
