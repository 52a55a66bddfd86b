// A lexical pre-pass over TOML text, run before toml++ parses it (task specs, LLM price tables, configuration
// files): it rejects, with clear messages, invalid TOML on which toml++ 3.3 violates its own preconditions
// or reaches undefined behaviour (see kopt/detail/toml.hpp):
//   - table headers whose name does not start with a key character ("[[", "[]", "[[[x]]]", "[<control>");
//   - control characters anywhere (with their position);
//   - a non-ASCII character outside a string or comment (never valid TOML 1.0; toml++ 3.3 asks its whitespace
//     table about it and some code points reach __builtin_unreachable: upstream marzer/tomlplusplus#295,
//     found by fuzz/prompt_template.cpp);
//   - in a multi-line basic string, a non-ASCII character as the first one after a line-ending backslash
//     (valid TOML, but the same toml++ path: upstream marzer/tomlplusplus#190); the message says how to
//     write it instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kopt::detail {

struct TomlProblem {
  std::uint32_t line = 1;    // 1-based
  std::uint32_t column = 1;  // 1-based, in code points
  std::string what;
  std::string expected;
};

std::optional<TomlProblem> precheck_toml(std::string_view text);

}  // namespace kopt::detail
