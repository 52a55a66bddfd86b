// JSON mapping of CompileRequest / CompileOutcome and the kopt-compile request and reply lines.
#include "compile/compile_json.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>
#include <vector>

namespace kopt::detail {
namespace {

using nlohmann::json;

Error field_error(std::string_view where, std::string_view field, std::string_view expected) {
  return make_error(ErrorCode::invalid_argument,
                    fmt::format("{}: field '{}': expected {}", where, field, expected));
}

Result<std::string> string_field(json const& object, std::string_view where, char const* field,
                                 bool required = true) {
  auto const it = object.find(field);
  if (it == object.end()) {
    if (required) return field_error(where, field, "a string (missing)");
    return std::string();
  }
  if (!it->is_string()) return field_error(where, field, "a string");
  return it->get<std::string>();
}

Result<std::vector<std::string>> strings_field(json const& object, std::string_view where,
                                               char const* field) {
  auto const it = object.find(field);
  if (it == object.end()) return std::vector<std::string>();
  if (!it->is_array()) return field_error(where, field, "an array of strings");
  std::vector<std::string> values;
  values.reserve(it->size());
  for (auto const& value : *it) {
    if (!value.is_string()) return field_error(where, field, "an array of strings");
    values.push_back(value.get<std::string>());
  }
  return values;
}

Result<CandidateMode> mode_field(json const& object, std::string_view where) {
  auto text = string_field(object, where, "mode");
  if (!text) return text.error();
  if (*text == "kernel") return CandidateMode::kernel;
  if (*text == "launcher") return CandidateMode::launcher;
  return field_error(where, "mode", fmt::format("\"kernel\" or \"launcher\", got \"{}\"", *text));
}

int int_or_unknown(json const& object, char const* field) {
  auto const it = object.find(field);
  if (it == object.end() || !it->is_number_integer()) return -1;
  return it->get<int>();
}

ErrorCode error_code_from(std::string_view text) {
  static constexpr std::array kCodes = {ErrorCode::invalid_argument, ErrorCode::invalid_spec,
                                        ErrorCode::io_error,         ErrorCode::not_found,
                                        ErrorCode::no_gpu,           ErrorCode::toolchain_error,
                                        ErrorCode::worker_error,     ErrorCode::internal_error};
  for (ErrorCode const code : kCodes) {
    if (text == to_string(code)) return code;
  }
  return ErrorCode::internal_error;
}

Result<json> parse_object(std::string_view line, std::string_view what) {
  json parsed = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded())
    return make_error(ErrorCode::invalid_argument, fmt::format("{}: not JSON", what));
  if (!parsed.is_object()) {
    return make_error(ErrorCode::invalid_argument, fmt::format("{}: expected a JSON object", what));
  }
  return parsed;
}

}  // namespace

json to_json(ResourceUsage const& usage) {
  return {{"registers", usage.registers},
          {"spill_stores_bytes", usage.spill_stores_bytes},
          {"spill_loads_bytes", usage.spill_loads_bytes},
          {"static_shared_bytes", usage.static_shared_bytes},
          {"stack_bytes", usage.stack_bytes}};
}

ResourceUsage resources_from_json(json const& object) {
  ResourceUsage usage;
  if (!object.is_object()) return usage;
  usage.registers = int_or_unknown(object, "registers");
  usage.spill_stores_bytes = int_or_unknown(object, "spill_stores_bytes");
  usage.spill_loads_bytes = int_or_unknown(object, "spill_loads_bytes");
  usage.static_shared_bytes = int_or_unknown(object, "static_shared_bytes");
  usage.stack_bytes = int_or_unknown(object, "stack_bytes");
  return usage;
}

json to_json(CompileRequest const& request) {
  std::vector<std::string> include_dirs;
  include_dirs.reserve(request.include_dirs.size());
  for (auto const& dir : request.include_dirs) include_dirs.push_back(dir.string());
  return {{"mode", std::string(to_string(request.mode))},
          {"source", request.source},
          {"origin", request.origin.string()},
          {"entry", request.entry},
          {"include_dirs", include_dirs},
          {"libraries", request.libraries},
          {"flags", request.flags}};
}

Result<CompileRequest> compile_request_from_json(json const& object, std::string_view where) {
  if (!object.is_object())
    return make_error(ErrorCode::invalid_argument, fmt::format("{}: expected an object", where));
  CompileRequest request;
  auto mode = mode_field(object, where);
  if (!mode) return mode.error();
  request.mode = *mode;
  auto source = string_field(object, where, "source");
  if (!source) return source.error();
  request.source = std::move(*source);
  auto origin = string_field(object, where, "origin", /*required=*/false);
  if (!origin) return origin.error();
  request.origin = *origin;
  auto entry = string_field(object, where, "entry");
  if (!entry) return entry.error();
  request.entry = std::move(*entry);
  auto include_dirs = strings_field(object, where, "include_dirs");
  if (!include_dirs) return include_dirs.error();
  for (auto const& dir : *include_dirs) request.include_dirs.emplace_back(dir);
  auto libraries = strings_field(object, where, "libraries");
  if (!libraries) return libraries.error();
  request.libraries = std::move(*libraries);
  auto flags = strings_field(object, where, "flags");
  if (!flags) return flags.error();
  request.flags = std::move(*flags);
  return request;
}

json to_json(CompileOutcome const& outcome) {
  Artifact const& artifact = outcome.artifact;
  return {{"ok", outcome.ok},
          {"artifact",
           {{"mode", std::string(to_string(artifact.mode))},
            {"path", artifact.path.string()},
            {"symbol", artifact.symbol},
            {"key", artifact.key},
            {"arch", artifact.arch},
            {"resources", to_json(artifact.resources)}}},
          {"diagnostics", outcome.diagnostics},
          {"compile_ms", outcome.compile_ms},
          {"cache_hit", outcome.cache_hit}};
}

Result<CompileOutcome> compile_outcome_from_json(json const& object, std::string_view where) {
  if (!object.is_object())
    return make_error(ErrorCode::invalid_argument, fmt::format("{}: expected an object", where));
  CompileOutcome outcome;
  auto const ok = object.find("ok");
  if (ok == object.end() || !ok->is_boolean()) return field_error(where, "ok", "true or false");
  outcome.ok = ok->get<bool>();
  auto diagnostics = string_field(object, where, "diagnostics", /*required=*/false);
  if (!diagnostics) return diagnostics.error();
  outcome.diagnostics = std::move(*diagnostics);
  if (auto const ms = object.find("compile_ms"); ms != object.end()) {
    if (!ms->is_number()) return field_error(where, "compile_ms", "a number");
    outcome.compile_ms = ms->get<double>();
  }
  if (auto const hit = object.find("cache_hit"); hit != object.end()) {
    if (!hit->is_boolean()) return field_error(where, "cache_hit", "true or false");
    outcome.cache_hit = hit->get<bool>();
  }
  auto const artifact = object.find("artifact");
  if (artifact == object.end()) {
    if (outcome.ok) return field_error(where, "artifact", "an object (missing while ok is true)");
    return outcome;
  }
  std::string const inner = fmt::format("{}: field 'artifact'", where);
  if (!artifact->is_object()) return field_error(where, "artifact", "an object");
  auto mode = mode_field(*artifact, inner);
  if (!mode) return mode.error();
  outcome.artifact.mode = *mode;
  auto path = string_field(*artifact, inner, "path", /*required=*/outcome.ok);
  if (!path) return path.error();
  outcome.artifact.path = *path;
  auto symbol = string_field(*artifact, inner, "symbol", /*required=*/outcome.ok);
  if (!symbol) return symbol.error();
  outcome.artifact.symbol = std::move(*symbol);
  auto key = string_field(*artifact, inner, "key", /*required=*/false);
  if (!key) return key.error();
  outcome.artifact.key = std::move(*key);
  auto arch = string_field(*artifact, inner, "arch", /*required=*/false);
  if (!arch) return arch.error();
  outcome.artifact.arch = std::move(*arch);
  if (auto const resources = artifact->find("resources"); resources != artifact->end()) {
    outcome.artifact.resources = resources_from_json(*resources);
  }
  return outcome;
}

std::string server_request_line(ServerRequest const& request) {
  CompileOptions const& options = request.options;
  json const line = {{"id", request.id},
                     {"key", request.key},
                     {"options",
                      {{"arch", options.arch},
                       {"cuda_home", options.cuda_home.string()},
                       {"cache_dir", options.cache_dir.string()},
                       {"extra_flags", options.extra_flags}}},
                     {"request", to_json(request.request)}};
  return line.dump();  // strict: a source that is not UTF-8 must not be altered on its way
}

Result<ServerRequest> parse_server_request(std::string_view line) {
  constexpr std::string_view where = "kopt-compile request line";
  auto parsed = parse_object(line, where);
  if (!parsed) return parsed.error();
  json const& object = *parsed;
  ServerRequest request;
  auto const id = object.find("id");
  if (id == object.end() || !id->is_number_integer()) return field_error(where, "id", "an integer");
  request.id = id->get<std::int64_t>();
  auto key = string_field(object, where, "key");
  if (!key) return key.error();
  request.key = std::move(*key);
  auto const options = object.find("options");
  if (options == object.end() || !options->is_object()) return field_error(where, "options", "an object");
  std::string const options_where = fmt::format("{}: field 'options'", where);
  auto arch = string_field(*options, options_where, "arch");
  if (!arch) return arch.error();
  request.options.arch = std::move(*arch);
  auto cuda_home = string_field(*options, options_where, "cuda_home");
  if (!cuda_home) return cuda_home.error();
  request.options.cuda_home = *cuda_home;
  auto cache_dir = string_field(*options, options_where, "cache_dir");
  if (!cache_dir) return cache_dir.error();
  request.options.cache_dir = *cache_dir;
  auto extra_flags = strings_field(*options, options_where, "extra_flags");
  if (!extra_flags) return extra_flags.error();
  request.options.extra_flags = std::move(*extra_flags);
  auto const body = object.find("request");
  if (body == object.end()) return field_error(where, "request", "an object (missing)");
  auto compile = compile_request_from_json(*body, fmt::format("{}: field 'request'", where));
  if (!compile) return compile.error();
  request.request = std::move(*compile);
  return request;
}

std::optional<std::int64_t> server_request_id(std::string_view line) {
  json const parsed = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return std::nullopt;
  auto const id = parsed.find("id");
  if (id == parsed.end() || !id->is_number_integer()) return std::nullopt;
  return id->get<std::int64_t>();
}

std::string server_reply_line(ServerReply const& reply) {
  json line = {{"id", reply.id ? json(*reply.id) : json(nullptr)}};
  if (reply.outcome) {
    line["outcome"] = to_json(*reply.outcome);
  } else {
    line["error"] = {{"code", to_string(reply.outcome.error().code)},
                     {"message", reply.outcome.error().message}};
  }
  return line.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<ServerReply> parse_server_reply(std::string_view line) {
  constexpr std::string_view where = "kopt-compile reply line";
  auto parsed = parse_object(line, where);
  if (!parsed) return parsed.error();
  json const& object = *parsed;
  ServerReply reply;
  if (auto const id = object.find("id"); id != object.end() && id->is_number_integer()) {
    reply.id = id->get<std::int64_t>();
  }
  if (auto const error = object.find("error"); error != object.end()) {
    if (!error->is_object()) return field_error(where, "error", "an object with code and message");
    auto code = string_field(*error, fmt::format("{}: field 'error'", where), "code");
    if (!code) return code.error();
    auto message = string_field(*error, fmt::format("{}: field 'error'", where), "message");
    if (!message) return message.error();
    reply.outcome = make_error(error_code_from(*code), std::move(*message));
    return reply;
  }
  auto const outcome = object.find("outcome");
  if (outcome == object.end()) return field_error(where, "outcome", "an object (or an error object)");
  auto decoded = compile_outcome_from_json(*outcome, fmt::format("{}: field 'outcome'", where));
  if (!decoded) return decoded.error();
  reply.outcome = std::move(*decoded);
  return reply;
}

}  // namespace kopt::detail
