// The generator kinds kopt knows: their parameters, which are required, and (structured) their targets.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kopt {

struct GeneratorKind {
  std::string_view name;
  bool structured = false;                 // fills several buffers; declared under [generators.<name>]
  std::vector<std::string_view> required;  // parameters without a default
  std::vector<std::string_view> optional;  // parameters with a default
  std::vector<std::string_view> targets;   // structured only: the roles it fills
  bool floating_only = false;              // the buffer must have a floating dtype
};

std::span<GeneratorKind const> all_generator_kinds();
GeneratorKind const* find_generator_kind(std::string_view name);
// "a, b, c" of the kinds that are (or are not) structured.
std::string kind_list(bool structured);
std::string join_names(std::vector<std::string_view> const& names);

}  // namespace kopt
