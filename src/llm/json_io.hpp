// JSON forms of requests and replies: the canonical request (cache keys, replay hashes, the external
// command's stdin) and the stored reply (cache entries, recordings).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "kopt/llm.hpp"
#include "kopt/result.hpp"

namespace kopt::llm {

// Every field of the request, in a fixed order (nlohmann sorts object keys).
nlohmann::json request_to_json(LlmRequest const& request);
nlohmann::json usage_to_json(LlmUsage const& usage);
nlohmann::json reply_to_json(LlmReply const& reply);
// `where` names the file (and line) in errors.
Result<LlmReply> reply_from_json(nlohmann::json const& json, std::string const& where);

}  // namespace kopt::llm
