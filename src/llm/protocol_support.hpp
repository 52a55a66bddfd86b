// Small helpers shared by the protocol adapters: typed field access with errors that name the field.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "kopt/llm.hpp"
#include "kopt/result.hpp"

namespace kopt::llm {

// The integer at `name` in `object` (absent or null: nullopt); anything else is an error naming `path`.
Result<std::optional<std::int64_t>> optional_count(nlohmann::json const& object, char const* name,
                                                   std::string const& path);
// The string at `name` (absent or null: ""); anything else is an error naming `path`.
Result<std::string> optional_string(nlohmann::json const& object, char const* name, std::string const& path);

// The end of a reply both protocols share: the finish reason (at `finish_name` in `holder`, errors naming
// `finish_path`), the top-level "model", and "usage" read by `parse_usage` when it is an object.
Status read_reply_tail(nlohmann::json const& reply, nlohmann::json const& holder, char const* finish_name,
                       std::string const& finish_path,
                       std::function<Status(nlohmann::json const&, LlmUsage&)> const& parse_usage,
                       LlmReply& out);

}  // namespace kopt::llm
