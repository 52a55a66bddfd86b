#include "cli/printable_text.hpp"

#include <fmt/format.h>

#include <vector>

namespace kopt::cli {
namespace {

// The length of the UTF-8 sequence starting at text[i] (1 to 4), or 0 when the bytes there are not one
// (a stray continuation byte, an overlong form, a surrogate, above U+10FFFF, cut short).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) noexcept {
  auto const byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  auto const continuation = [&](std::size_t k) { return i + k < text.size() && (byte(k) & 0xC0U) == 0x80U; };
  unsigned char const lead = byte(0);
  if (lead < 0x80U) return 1;
  if (lead >= 0xC2U && lead <= 0xDFU) return continuation(1) ? 2 : 0;
  if (lead >= 0xE0U && lead <= 0xEFU) {
    if (!continuation(1) || !continuation(2)) return 0;
    if (lead == 0xE0U && byte(1) < 0xA0U) return 0;   // overlong
    if (lead == 0xEDU && byte(1) >= 0xA0U) return 0;  // a surrogate
    return 3;
  }
  if (lead >= 0xF0U && lead <= 0xF4U) {
    if (!continuation(1) || !continuation(2) || !continuation(3)) return 0;
    if (lead == 0xF0U && byte(1) < 0x90U) return 0;   // overlong
    if (lead == 0xF4U && byte(1) >= 0x90U) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

// One line of `text` (no newline in it), each character as it will be printed.
std::vector<std::string> printable_characters(std::string_view line) {
  std::vector<std::string> characters;
  characters.reserve(line.size());
  for (std::size_t i = 0; i < line.size();) {
    auto const byte = static_cast<unsigned char>(line[i]);
    std::size_t const length = utf8_sequence_length(line, i);
    bool const control = (byte < 0x20U && byte != '\t') || byte == 0x7FU;
    if (length == 0 || control) {  // not UTF-8, or a C0 control character or DEL: shown as its byte
      characters.push_back(fmt::format("\\x{:02x}", byte));
      ++i;
    } else if (length == 2 && byte == 0xC2U && static_cast<unsigned char>(line[i + 1]) < 0xA0U) {
      characters.push_back(fmt::format("\\u{:04x}", static_cast<unsigned char>(line[i + 1])));  // C1 control
      i += 2;
    } else {
      characters.emplace_back(line.substr(i, length));
      i += length;
    }
  }
  return characters;
}

}  // namespace

std::string printable_text(std::string_view text, std::size_t max_line_chars) {
  std::string out;
  out.reserve(text.size());
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t const end = std::min(text.find('\n', start), text.size());
    auto const characters = printable_characters(text.substr(start, end - start));
    std::size_t const keep_head = max_line_chars * 3 / 4;
    std::size_t const keep_tail = max_line_chars / 4;
    if (characters.size() > max_line_chars && max_line_chars > 0) {
      for (std::size_t i = 0; i < keep_head; ++i) out += characters[i];
      out += fmt::format("...({} characters left out)...", characters.size() - keep_head - keep_tail);
      for (std::size_t i = characters.size() - keep_tail; i < characters.size(); ++i) out += characters[i];
    } else {
      for (auto const& character : characters) out += character;
    }
    if (end == text.size()) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace kopt::cli
