// The JSON form of compile requests and outcomes, and the kopt-compile protocol built on it: one request
// object per line on the server's stdin, one reply object per line on its stdout (docs/compile.md).
//   request: {"id": 7, "key": "<cache key>", "options": {"arch", "cuda_home", "cache_dir", "extra_flags"},
//             "request": {"mode", "source", "origin", "entry", "include_dirs", "libraries", "flags"}}
//   reply:   {"id": 7, "outcome": {"ok", "artifact": {...}, "diagnostics", "compile_ms", "cache_hit"}}
//        or  {"id": 7, "error": {"code": "toolchain_error", "message": "..."}}   (id null: unreadable line)
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "kopt/compile.hpp"
#include "kopt/result.hpp"

namespace kopt::detail {

nlohmann::json to_json(ResourceUsage const& usage);
// Missing or non-integer fields read as -1 (unknown).
ResourceUsage resources_from_json(nlohmann::json const& object);

nlohmann::json to_json(CompileRequest const& request);
// `where` names the object in messages (e.g. "kopt-compile request line: field 'request'").
Result<CompileRequest> compile_request_from_json(nlohmann::json const& object, std::string_view where);

nlohmann::json to_json(CompileOutcome const& outcome);
Result<CompileOutcome> compile_outcome_from_json(nlohmann::json const& object, std::string_view where);

// One request to kopt-compile: the compile and the part of the build context the NVRTC backend reads.
struct ServerRequest {
  std::int64_t id = 0;
  std::string key;         // the cache key the parent computed (names the artifact)
  CompileOptions options;  // arch, cuda_home, cache_dir and extra_flags are sent
  CompileRequest request;
};

// Throws nlohmann::json::type_error when a string is not valid UTF-8 (the caller compiles in-process).
std::string server_request_line(ServerRequest const& request);
Result<ServerRequest> parse_server_request(std::string_view line);
// The "id" of a request line that parse_server_request rejected, when it has a readable one.
std::optional<std::int64_t> server_request_id(std::string_view line);

struct ServerReply {
  std::optional<std::int64_t> id;  // empty when the request line could not be read
  Result<CompileOutcome> outcome = make_error(ErrorCode::internal_error, "no reply");
};

// Invalid UTF-8 in diagnostics is replaced, never thrown.
std::string server_reply_line(ServerReply const& reply);
Result<ServerReply> parse_server_reply(std::string_view line);

}  // namespace kopt::detail
