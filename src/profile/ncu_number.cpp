// ncu prints numbers with thousands separators ("268,449,792"), "n/a" for metrics it could not
// collect, and plain decimals otherwise (docs/profiling.md).
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

#include "kopt/profile.hpp"
#include "kopt/text.hpp"

namespace kopt {
namespace {

bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}

// Integer digits with optional thousands groups: "7", "1234", "268,449,792". Appends the digits to
// `out` and returns the number of characters read, 0 when the text does not start that way.
std::size_t read_integer_part(std::string_view text, std::string& out) {
  std::size_t i = 0;
  while (i < text.size() && is_digit(text[i])) out += text[i++];
  if (i == 0 || i >= text.size() || text[i] != ',') return i;
  if (i > 3) return 0;  // "1234,567": not a grouping
  while (i < text.size() && text[i] == ',') {
    bool const three_digits =
        i + 3 < text.size() && is_digit(text[i + 1]) && is_digit(text[i + 2]) && is_digit(text[i + 3]);
    if (!three_digits || (i + 4 < text.size() && is_digit(text[i + 4]))) return 0;  // "9,00", "1,2345"
    out.append(text.substr(i + 1, 3));
    i += 4;
  }
  return i;
}

}  // namespace

std::optional<double> parse_ncu_number(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  std::string plain;
  std::size_t i = 0;
  if (text[0] == '-' || text[0] == '+') {
    if (text[0] == '-') plain += '-';
    i = 1;
  }
  std::size_t const integer_length = read_integer_part(text.substr(i), plain);
  if (integer_length == 0 && (i >= text.size() || text[i] != '.')) return std::nullopt;
  i += integer_length;
  if (i < text.size() && text[i] == '.') {
    plain += '.';
    ++i;
    std::size_t const start = i;
    while (i < text.size() && is_digit(text[i])) plain += text[i++];
    if (i == start && integer_length == 0) return std::nullopt;  // "." alone
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    plain += 'e';
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) plain += text[i++];
    std::size_t const start = i;
    while (i < text.size() && is_digit(text[i])) plain += text[i++];
    if (i == start) return std::nullopt;  // "1e"
  }
  if (i != text.size()) return std::nullopt;
  double value = 0.0;
  auto const [end, error] = std::from_chars(plain.data(), plain.data() + plain.size(), value);
  if (error != std::errc() || end != plain.data() + plain.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

}  // namespace kopt
