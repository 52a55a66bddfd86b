// reply_prose: the prose of a model's reply (its rationale) without the code: fenced blocks and
// SEARCH/REPLACE blocks are left out, blank-line runs are kept to one, and the text is cut to a size.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "kopt/llm_roles.hpp"
#include "llm/text_lines.hpp"

namespace kopt {
namespace {

bool is_space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

bool is_blank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), is_space);
}

std::string_view rstrip(std::string_view text) {
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

// The backticks of a fence line (at most 3 spaces of indentation; no backtick after them), 0 when none.
// `rest` receives the text after the backticks (the info string).
std::size_t fence_length(std::string_view line, std::string_view& rest) {
  std::size_t indent = 0;
  while (indent < line.size() && indent < 3 && line[indent] == ' ') ++indent;
  std::size_t n = 0;
  while (indent + n < line.size() && line[indent + n] == '`') ++n;
  if (n < 3) return 0;
  rest = line.substr(indent + n);
  if (rest.find('`') != std::string_view::npos) return 0;  // inline code, not a fence
  return n;
}

// A SEARCH/REPLACE marker line: 5 to 9 `c` characters, then `word` after whitespace, then nothing.
bool is_marker(std::string_view line, char c, std::string_view word) {
  line = rstrip(line);
  std::size_t n = 0;
  while (n < line.size() && line[n] == c) ++n;
  if (n < 5 || n > 9) return false;
  auto const rest = line.substr(n);
  auto const first = rest.find_first_not_of(" \t");
  if (first == std::string_view::npos || first == 0) return false;
  return rest.substr(first) == word;
}

// The longest prefix of `text` of at most `max_bytes` bytes that does not split a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  auto const continuation = [&](std::size_t i) {
    return (static_cast<unsigned char>(text[i]) & 0xC0U) == 0x80U;
  };
  while (cut > 0 && continuation(cut)) --cut;
  return text.substr(0, cut);
}

}  // namespace

std::string reply_prose(std::string_view reply, std::size_t max_bytes) {
  std::string prose;
  std::size_t fence = 0;  // the backticks of the open fenced block; 0: none open
  bool in_edit = false;   // inside a SEARCH/REPLACE block outside any fence
  bool blank_pending = false;
  for (std::string_view const raw : detail::split_lines(reply)) {
    std::string_view const line = detail::strip_cr(raw);
    std::string_view info;
    std::size_t const length = fence_length(line, info);
    if (fence > 0) {
      if (length >= fence && is_blank(info)) fence = 0;
      continue;
    }
    if (in_edit) {
      if (is_marker(line, '>', "REPLACE")) in_edit = false;
      continue;
    }
    if (length > 0) {
      fence = length;
      blank_pending = !prose.empty();
      continue;
    }
    if (is_marker(line, '<', "SEARCH")) {
      in_edit = true;
      blank_pending = !prose.empty();
      continue;
    }
    std::string_view const text = rstrip(line);
    if (text.empty()) {
      blank_pending = !prose.empty();
      continue;
    }
    if (!prose.empty()) prose += blank_pending ? "\n\n" : "\n";
    blank_pending = false;
    prose += text;
  }
  auto const first = prose.find_first_not_of(" \t");
  if (first != std::string::npos && first > 0) prose.erase(0, first);
  if (prose.size() <= max_bytes) return prose;
  std::string cut(rstrip(utf8_prefix(prose, max_bytes)));
  return cut + " ...";
}

}  // namespace kopt
