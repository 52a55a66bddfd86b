// reply_prose: the prose of a model's reply (its rationale) without the code: fenced blocks and
// SEARCH/REPLACE blocks are left out, blank-line runs are kept to one, and the text is cut to a size.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "kopt/llm_roles.hpp"
#include "kopt/text.hpp"
#include "llm/text_lines.hpp"

namespace kopt {
namespace {

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
    std::size_t const length = detail::fence_length(line, &info);
    if (fence > 0) {
      if (length >= fence && is_blank(info)) fence = 0;
      continue;
    }
    if (in_edit) {
      if (detail::is_edit_marker(line, '>', "REPLACE")) in_edit = false;
      continue;
    }
    if (length > 0) {
      fence = length;
      blank_pending = !prose.empty();
      continue;
    }
    if (detail::is_edit_marker(line, '<', "SEARCH")) {
      in_edit = true;
      blank_pending = !prose.empty();
      continue;
    }
    std::string_view const text = trim_end(line);
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
  std::string cut(trim_end(utf8_prefix(prose, max_bytes)));
  return cut + " ...";
}

}  // namespace kopt
