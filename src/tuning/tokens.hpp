// Tokens of annotation text shared by the tuning sources: C identifiers, textual substitution of names
// (knob names in launch expressions, kernel names and the `// kopt:launch` line), flag arguments.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::tuning_detail {

bool is_identifier(std::string_view text) noexcept;

// Replaces every identifier token of `text` for which `replacement` returns a value. Tokens that
// start with a digit (numbers such as 0x1F or 2u) are kept whole and never replaced.
std::string substitute_identifiers(
    std::string_view text, std::function<std::optional<std::string>(std::string_view)> const& replacement);

// The arguments of a flag knob's value: split at spaces and tabs ("-Xptxas -O3" is two arguments).
std::vector<std::string> split_arguments(std::string_view text);

}  // namespace kopt::tuning_detail
