// Numbers for people: 3 significant digits, with the unit chosen so the number stays short.
#include "kopt/units.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <span>
#include <string>

namespace kopt {
namespace {

struct Unit {
  std::string_view name;
  double scale;  // size of the unit in the base unit
};

// Formats |value| with 3 significant digits; sets `rounded` to the number the text shows.
std::string three_digits(double magnitude, double& rounded) {
  if (magnitude == 0.0) {
    rounded = 0.0;
    return "0";
  }
  int digits = static_cast<int>(std::floor(std::log10(magnitude)));
  int decimals = digits >= 2 ? 0 : 2 - digits;
  std::string text = fmt::format("{:.{}f}", magnitude, decimals);
  rounded = std::stod(text);
  // Rounding can add a digit (9.996 -> "10.00"): drop one decimal.
  if (decimals > 0 && rounded >= std::pow(10.0, digits + 1)) {
    text = fmt::format("{:.{}f}", magnitude, decimals - 1);
    rounded = std::stod(text);
  }
  return text;
}

std::string with_units(double value, std::span<Unit const> units) {
  if (std::isnan(value)) return "nan";
  std::string sign = value < 0 ? "-" : "";
  double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return fmt::format("{}inf {}", sign, units.back().name);
  std::size_t index = 0;
  while (index + 1 < units.size() && magnitude >= units[index + 1].scale) ++index;
  double rounded = 0.0;
  std::string text = three_digits(magnitude / units[index].scale, rounded);
  // 999.7 ns shows as "1000": use the next unit instead.
  if (rounded >= 1000.0 && index + 1 < units.size()) {
    ++index;
    text = three_digits(magnitude / units[index].scale, rounded);
  }
  return fmt::format("{}{} {}", sign, text, units[index].name);
}

}  // namespace

std::string format_3sig(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  double rounded = 0.0;
  std::string text = three_digits(std::fabs(value), rounded);
  return value < 0 && rounded != 0.0 ? "-" + text : text;
}

std::string format_duration_us(double microseconds) {
  static constexpr std::array<Unit, 4> kUnits{{{"ns", 1e-3}, {"µs", 1.0}, {"ms", 1e3}, {"s", 1e6}}};
  return with_units(microseconds, kUnits);
}

std::string format_duration_ms(double milliseconds) {
  return format_duration_us(milliseconds * 1e3);
}

std::string format_si(double value, std::string_view unit) {
  std::array<std::string, 6> names;
  std::array<Unit, 6> units{};
  static constexpr std::array<std::string_view, 6> kPrefixes{"", "k", "M", "G", "T", "P"};
  double scale = 1.0;
  for (std::size_t i = 0; i < units.size(); ++i) {
    names[i] = fmt::format("{}{}", kPrefixes[i], unit);
    units[i] = Unit{names[i], scale};
    scale *= 1000.0;
  }
  return with_units(value, units);
}

std::string format_ratio(double ratio) {
  return format_3sig(ratio) + "x";
}

}  // namespace kopt
