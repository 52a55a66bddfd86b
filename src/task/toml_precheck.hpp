// A lexical pre-pass over task.toml text that rejects, with clear messages, invalid TOML on which
// toml++ 3.3 violates its own preconditions (see kopt/detail/toml.hpp): table headers whose name does not
// start with a key character ("[[", "[]", "[[[x]]]", "[<control character>"). Control characters
// anywhere are rejected too, with their position.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace kopt::task_detail {

struct TomlProblem {
  std::uint32_t line = 1;    // 1-based
  std::uint32_t column = 1;  // 1-based, in code points
  std::string what;
  std::string expected;
};

std::optional<TomlProblem> precheck_toml(std::string const& text);

}  // namespace kopt::task_detail
