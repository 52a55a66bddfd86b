// Checks for numeric command-line options whose errors read as plain language, e.g.
// "--budget: expected a whole number of at least 1, got '0'" (CLI11's own range validators print the
// limits of `double`, hundreds of digits long). CLI11 prefixes the option's name.
#pragma once

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include <string>

namespace kopt::cli {

// A command-line value quoted for an error message, shortened past 40 characters ("'abc...' (20000
// characters)"): one argument may carry megabytes.
std::string quoted_argument(std::string const& text);

// An integer (digits with an optional sign, nothing else) of at least `min`.
CLI::Validator whole_number_at_least(long long min);
// An integer from `low` to `high`, both included.
CLI::Validator whole_number_between(long long low, long long high);
// A finite decimal number strictly above `min`.
CLI::Validator number_above(double min);
// A finite decimal number of at least `min`.
CLI::Validator number_at_least(double min);
// A finite decimal number from `low` to `high`, both included.
CLI::Validator number_between(double low, double high);

}  // namespace kopt::cli
