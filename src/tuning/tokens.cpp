// Tokens of annotation text: identifiers, substitution, flag arguments.
#include "tuning/tokens.hpp"

#include <cctype>

namespace kopt::tuning_detail {
namespace {

bool is_identifier_start(char c) noexcept {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool is_identifier_char(char c) noexcept {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

}  // namespace

bool is_identifier(std::string_view text) noexcept {
  if (text.empty() || !is_identifier_start(text.front())) return false;
  for (char const c : text) {
    if (!is_identifier_char(c)) return false;
  }
  return true;
}

std::string substitute_identifiers(
    std::string_view text, std::function<std::optional<std::string>(std::string_view)> const& replacement) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    char const c = text[i];
    if (is_identifier_char(c)) {
      std::size_t const start = i;
      while (i < text.size() && is_identifier_char(text[i])) ++i;
      std::string_view const token = text.substr(start, i - start);
      std::optional<std::string> const value = is_identifier_start(c) ? replacement(token) : std::nullopt;
      if (value) {
        out += *value;
      } else {
        out += token;
      }
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

std::vector<std::string> split_arguments(std::string_view text) {
  std::vector<std::string> arguments;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])) != 0) ++i;
    std::size_t const start = i;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])) == 0) ++i;
    if (i > start) arguments.emplace_back(text.substr(start, i - start));
  }
  return arguments;
}

}  // namespace kopt::tuning_detail
