// Small helpers shared by the protocol adapters: typed field access with errors that name the field.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kopt/result.hpp"

namespace kopt::llm {

// The integer at `name` in `object` (absent or null: nullopt); anything else is an error naming `path`.
Result<std::optional<std::int64_t>> optional_count(nlohmann::json const& object, char const* name,
                                                   std::string const& path);
// The string at `name` (absent or null: ""); anything else is an error naming `path`.
Result<std::string> optional_string(nlohmann::json const& object, char const* name, std::string const& path);

}  // namespace kopt::llm
