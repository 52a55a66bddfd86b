// kopt-compile's request loop: parse, check, compile with NVRTC (single-threaded), reply.
#include "compile/compile_server.hpp"

#include <fmt/format.h>
#include <re2/re2.h>

#include <chrono>
#include <exception>
#include <filesystem>
#include <istream>
#include <ostream>

#include "compile/backends.hpp"
#include "compile/compile_json.hpp"

namespace kopt::detail {
namespace {

Status check_request(ServerRequest const& request) {
  static RE2 const key_form("[0-9a-f]{32}", RE2::Latin1);
  if (!RE2::FullMatch(request.key, key_form)) {
    return make_error(
        ErrorCode::invalid_argument,
        fmt::format("kopt-compile request {}: field 'key': expected 32 lowercase hex digits, got '{}'",
                    request.id, request.key));
  }
  if (request.request.mode != CandidateMode::kernel) {
    return make_error(
        ErrorCode::invalid_argument,
        fmt::format("kopt-compile request {}: field 'request.mode': kopt-compile builds kernel-mode "
                    "requests only, got '{}'",
                    request.id, to_string(request.request.mode)));
  }
  if (request.request.entry.empty()) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("kopt-compile request {}: field 'request.entry': expected the __global__ "
                                  "function name, got an empty string",
                                  request.id));
  }
  std::error_code ec;
  if (request.options.cache_dir.empty() || !std::filesystem::is_directory(request.options.cache_dir, ec)) {
    return make_error(ErrorCode::io_error,
                      fmt::format("kopt-compile request {}: field 'options.cache_dir': expected an existing "
                                  "folder, got '{}'",
                                  request.id, request.options.cache_dir.string()));
  }
  if (request.options.arch.empty()) {
    return make_error(
        ErrorCode::invalid_argument,
        fmt::format("kopt-compile request {}: field 'options.arch': expected a GPU architecture "
                    "such as sm_90, got an empty string",
                    request.id));
  }
  return Ok{};
}

ServerReply serve(std::string_view line) {
  ServerReply reply;
  auto request = parse_server_request(line);
  if (!request) {
    reply.id = server_request_id(line);
    reply.outcome = request.error();
    return reply;
  }
  reply.id = request->id;
  if (auto status = check_request(*request); !status) {
    reply.outcome = status.error();
    return reply;
  }
  auto const start = std::chrono::steady_clock::now();
  std::filesystem::path const no_nvcc;
  BuildContext const context{request->options, no_nvcc, request->key};
  reply.outcome = compile_kernel_nvrtc(request->request, context);
  if (reply.outcome) {
    reply.outcome->compile_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    reply.outcome->cache_hit = false;
  }
  return reply;
}

}  // namespace

std::string serve_compile_line(std::string_view line) {
  try {
    return server_reply_line(serve(line));
  } catch (std::exception const& error) {
    ServerReply reply;
    reply.outcome = make_error(ErrorCode::internal_error, fmt::format("kopt-compile: {}", error.what()));
    return server_reply_line(reply);
  }
}

int run_compile_server(std::istream& in, std::ostream& out) {
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank lines are no requests
    out << serve_compile_line(line) << '\n' << std::flush;
  }
  return 0;
}

}  // namespace kopt::detail
