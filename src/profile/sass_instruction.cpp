#include "profile/sass_instruction.hpp"

#include <array>
#include <cctype>

#include "kopt/text.hpp"

namespace kopt::detail {
namespace {

std::string_view next_token(std::string_view& text) noexcept {
  std::size_t end = 0;
  while (end < text.size() && !is_ascii_space(text[end])) ++end;
  std::string_view const token = text.substr(0, end);
  text = trim(text.substr(end));
  return token;
}

bool is_mnemonic(std::string_view token) noexcept {
  if (token.empty() || token.front() < 'A' || token.front() > 'Z') return false;
  for (char const c : token) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_' && c != '.') return false;
  }
  return token.back() != '.';
}

}  // namespace

std::optional<SassInstruction> parse_sass_instruction(std::string_view line) {
  line = trim(line);
  if (line.starts_with("//") || line.starts_with('#') || line.starts_with(';')) return std::nullopt;
  while (line.starts_with("/*")) {  // the /*0080*/ address (and any other leading comment)
    auto const end = line.find("*/");
    if (end == std::string_view::npos) return std::nullopt;
    line = trim(line.substr(end + 2));
  }
  if (auto const comment = line.find("/*"); comment != std::string_view::npos) {
    line = trim(line.substr(0, comment));  // the trailing /* 0x... */ encoding
  }
  if (!line.ends_with(';')) return std::nullopt;
  line = trim(line.substr(0, line.size() - 1));
  if (line.starts_with('{')) line = trim(line.substr(1));  // dual-issue braces of older architectures

  SassInstruction instruction;
  std::string_view token = next_token(line);
  if (token.starts_with('@')) {
    if (token.size() < 2) return std::nullopt;
    instruction.predicate = std::string(token);
    token = next_token(line);
  }
  if (!is_mnemonic(token)) return std::nullopt;
  instruction.mnemonic = std::string(token);
  auto dot = token.find('.');
  instruction.base = std::string(token.substr(0, dot));
  while (dot != std::string_view::npos) {
    token.remove_prefix(dot + 1);
    dot = token.find('.');
    instruction.modifiers.emplace_back(token.substr(0, dot));
  }
  return instruction;
}

int sass_access_width(SassInstruction const& instruction) {
  if (instruction.base == "LDSM" || instruction.base == "STSM") {
    if (!instruction.modifiers.empty()) {
      std::string const& last = instruction.modifiers.back();
      if (last == "2") return 64;
      if (last == "4") return 128;
    }
    return 32;
  }
  static constexpr std::array<std::pair<std::string_view, int>, 10> kWidths{{
      {"8", 8},
      {"16", 16},
      {"32", 32},
      {"64", 64},
      {"128", 128},
      {"256", 256},
      {"U8", 8},
      {"S8", 8},
      {"U16", 16},
      {"S16", 16},
  }};
  int width = 32;
  for (std::string const& modifier : instruction.modifiers) {
    for (auto const& [name, bits] : kWidths) {
      if (modifier == name) width = bits;
    }
  }
  return width;
}

}  // namespace kopt::detail
