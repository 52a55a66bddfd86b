// Numbers for people: 3 significant digits, with the unit chosen so that the number stays short. Shared
// by every renderer (report, run_report, suite_bench) and the text lines the search prints.
#pragma once

#include <string>
#include <string_view>

namespace kopt {

// Picks ns, µs, ms or s so the number keeps 3 significant digits: 0.0123 ms -> "12.3 µs".
std::string format_duration_us(double microseconds);
std::string format_duration_ms(double milliseconds);
// SI prefixes (k, M, G, T, P): format_si(4194304, "B") -> "4.19 MB".
std::string format_si(double value, std::string_view unit);
// Ratios: "3.41x".
std::string format_ratio(double ratio);
// A number with 3 significant digits and no unit or exponent: 0.5 -> "0.500", 12.34 -> "12.3";
// from 1000 on it is rounded to an integer: 1234.4 -> "1234".
std::string format_3sig(double value);

}  // namespace kopt
