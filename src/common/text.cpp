#include "kopt/text.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace kopt {

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view text) noexcept {
  while (!text.empty() && is_ascii_space(text.front())) text.remove_prefix(1);
  return trim_end(text);
}

std::string_view trim_end(std::string_view text) noexcept {
  while (!text.empty() && is_ascii_space(text.back())) text.remove_suffix(1);
  return text;
}

bool is_blank(std::string_view text) noexcept {
  return trim_end(text).empty();
}

std::optional<std::string> read_text_file(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return text.str();
}

bool write_text_file(std::filesystem::path const& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  return static_cast<bool>(out);
}

}  // namespace kopt
