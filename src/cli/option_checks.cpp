#include "cli/option_checks.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace kopt::cli {
namespace {

std::optional<long long> parse_whole(std::string const& text) {
  long long value = 0;
  char const* begin = text.data();
  char const* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end || begin == end) return std::nullopt;
  return value;
}

std::optional<double> parse_real(std::string const& text) {
  double value = 0.0;
  char const* begin = text.data();
  char const* end = begin + text.size();
  if (begin != end && *begin == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end || begin == end || !std::isfinite(value)) return std::nullopt;
  return value;
}

CLI::Validator whole_number_check(std::string const& expected, std::string shown, long long low,
                                  long long high) {
  return CLI::Validator(
      [expected, low, high](std::string& text) -> std::string {
        auto value = parse_whole(text);
        if (!value || *value < low || *value > high)
          return "expected " + expected + ", got " + quoted_argument(text);
        return {};
      },
      std::move(shown));
}

CLI::Validator real_number_check(std::string const& expected, std::string shown, double low,
                                 bool low_included, double high) {
  return CLI::Validator(
      [expected, low, low_included, high](std::string& text) -> std::string {
        auto value = parse_real(text);
        bool const above_low = value && (low_included ? *value >= low : *value > low);
        if (!value || !above_low || *value > high)
          return "expected " + expected + ", got " + quoted_argument(text);
        return {};
      },
      std::move(shown));
}

}  // namespace

std::string quoted_argument(std::string const& text) {
  constexpr std::size_t kShown = 40;
  if (text.size() <= kShown) return "'" + text + "'";
  return "'" + text.substr(0, kShown) + "...' (" + std::to_string(text.size()) + " characters)";
}

CLI::Validator whole_number_at_least(long long min) {
  return whole_number_check(fmt::format("a whole number of at least {}", min), fmt::format(">= {}", min), min,
                            std::numeric_limits<long long>::max());
}

CLI::Validator whole_number_between(long long low, long long high) {
  return whole_number_check(fmt::format("a whole number from {} to {}", low, high),
                            fmt::format("in [{} - {}]", low, high), low, high);
}

CLI::Validator number_above(double min) {
  return real_number_check(fmt::format("a number above {}", min), fmt::format("> {}", min), min, false,
                           std::numeric_limits<double>::max());
}

CLI::Validator number_at_least(double min) {
  return real_number_check(fmt::format("a number of at least {}", min), fmt::format(">= {}", min), min, true,
                           std::numeric_limits<double>::max());
}

CLI::Validator number_between(double low, double high) {
  return real_number_check(fmt::format("a number from {} to {}", low, high),
                           fmt::format("in [{} - {}]", low, high), low, true, high);
}

}  // namespace kopt::cli
