// The JSON mapping of compile requests and outcomes, and kopt-compile's line protocol (no process here:
// serve_compile_line is the server's whole request handling).
#include "compile/compile_json.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "compile/compile_server.hpp"
#include "compile_test_support.hpp"
#include "kopt/toolchain.hpp"

namespace kopt::detail {
namespace compile_json_test {

using kopt::testing::TempDir;

CompileRequest full_request() {
  CompileRequest request;
  request.mode = CandidateMode::kernel;
  request.source = "extern \"C\" __global__ void k(float* o) { o[0] = 1.0f; }\n// \"quoted\" \\ tab\t\n";
  request.origin = "dir/cand.cu";
  request.entry = "k";
  request.include_dirs = {"/inc/a", "rel/b"};
  request.libraries = {"cublas"};
  request.flags = {"-DTILE=64", "--use_fast_math"};
  return request;
}

CompileOutcome full_outcome() {
  CompileOutcome outcome;
  outcome.ok = true;
  outcome.artifact.mode = CandidateMode::kernel;
  outcome.artifact.path = "/cache/0123.cubin";
  outcome.artifact.symbol = "_Z1kPf";
  outcome.artifact.key = "0123";
  outcome.artifact.arch = "sm_90";
  outcome.artifact.resources = ResourceUsage{40, 8, 4, 1024, 16};
  outcome.diagnostics = "warning: something\n";
  outcome.compile_ms = 12.5;
  outcome.cache_hit = true;
  return outcome;
}

void expect_same(CompileRequest const& a, CompileRequest const& b) {
  EXPECT_EQ(a.mode, b.mode);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.origin, b.origin);
  EXPECT_EQ(a.entry, b.entry);
  EXPECT_EQ(a.include_dirs, b.include_dirs);
  EXPECT_EQ(a.libraries, b.libraries);
  EXPECT_EQ(a.flags, b.flags);
}

void expect_same(CompileOutcome const& a, CompileOutcome const& b) {
  EXPECT_EQ(a.ok, b.ok);
  EXPECT_EQ(a.artifact.mode, b.artifact.mode);
  EXPECT_EQ(a.artifact.path, b.artifact.path);
  EXPECT_EQ(a.artifact.symbol, b.artifact.symbol);
  EXPECT_EQ(a.artifact.key, b.artifact.key);
  EXPECT_EQ(a.artifact.arch, b.artifact.arch);
  EXPECT_EQ(a.artifact.resources.registers, b.artifact.resources.registers);
  EXPECT_EQ(a.artifact.resources.spill_stores_bytes, b.artifact.resources.spill_stores_bytes);
  EXPECT_EQ(a.artifact.resources.spill_loads_bytes, b.artifact.resources.spill_loads_bytes);
  EXPECT_EQ(a.artifact.resources.static_shared_bytes, b.artifact.resources.static_shared_bytes);
  EXPECT_EQ(a.artifact.resources.stack_bytes, b.artifact.resources.stack_bytes);
  EXPECT_EQ(a.diagnostics, b.diagnostics);
  EXPECT_DOUBLE_EQ(a.compile_ms, b.compile_ms);
  EXPECT_EQ(a.cache_hit, b.cache_hit);
}

TEST(CompileJson, RequestRoundTripsThroughJson) {
  CompileRequest const request = full_request();
  auto const back = compile_request_from_json(nlohmann::json::parse(to_json(request).dump()), "test");
  ASSERT_TRUE(back) << back.error().message;
  expect_same(*back, request);
}

TEST(CompileJson, OutcomeRoundTripsThroughJson) {
  CompileOutcome const outcome = full_outcome();
  auto const back = compile_outcome_from_json(nlohmann::json::parse(to_json(outcome).dump()), "test");
  ASSERT_TRUE(back) << back.error().message;
  expect_same(*back, outcome);
}

TEST(CompileJson, FailedOutcomeRoundTripsWithUnknownResources) {
  CompileOutcome failed;
  failed.ok = false;
  failed.diagnostics = "cand.cu(3): error: expected a \";\"";
  auto const back = compile_outcome_from_json(to_json(failed), "test");
  ASSERT_TRUE(back) << back.error().message;
  expect_same(*back, failed);
  EXPECT_EQ(back->artifact.resources.registers, -1);
}

TEST(CompileJson, RequestErrorsNameTheField) {
  nlohmann::json json = to_json(full_request());
  json["flags"] = {"-DA", 3};
  auto bad_flags = compile_request_from_json(json, "where");
  ASSERT_FALSE(bad_flags);
  EXPECT_EQ(bad_flags.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(bad_flags.error().message.find("where: field 'flags': expected an array of strings"),
            std::string::npos)
      << bad_flags.error().message;

  json = to_json(full_request());
  json["mode"] = "host";
  auto bad_mode = compile_request_from_json(json, "where");
  ASSERT_FALSE(bad_mode);
  EXPECT_NE(bad_mode.error().message.find("'mode'"), std::string::npos) << bad_mode.error().message;
  EXPECT_NE(bad_mode.error().message.find("host"), std::string::npos) << bad_mode.error().message;

  json = to_json(full_request());
  json.erase("entry");
  auto no_entry = compile_request_from_json(json, "where");
  ASSERT_FALSE(no_entry);
  EXPECT_NE(no_entry.error().message.find("'entry'"), std::string::npos) << no_entry.error().message;
}

TEST(CompileJson, AnOkOutcomeWithoutArtifactIsRejected) {
  nlohmann::json json = to_json(full_outcome());
  json.erase("artifact");
  auto const back = compile_outcome_from_json(json, "reply");
  ASSERT_FALSE(back);
  EXPECT_NE(back.error().message.find("'artifact'"), std::string::npos) << back.error().message;
}

TEST(CompileJson, ServerRequestLineRoundTrips) {
  ServerRequest request;
  request.id = 42;
  request.key = "0123456789abcdef0123456789abcdef";
  request.options.arch = "sm_80";
  request.options.cuda_home = "/usr/local/cuda";
  request.options.cache_dir = "/tmp/cache";
  request.options.extra_flags = {"-lineinfo"};
  request.request = full_request();
  std::string const line = server_request_line(request);
  EXPECT_EQ(line.find('\n'), std::string::npos) << "one request per line";
  auto const back = parse_server_request(line);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->id, 42);
  EXPECT_EQ(back->key, request.key);
  EXPECT_EQ(back->options.arch, "sm_80");
  EXPECT_EQ(back->options.cuda_home, request.options.cuda_home);
  EXPECT_EQ(back->options.cache_dir, request.options.cache_dir);
  EXPECT_EQ(back->options.extra_flags, request.options.extra_flags);
  expect_same(back->request, request.request);
}

TEST(CompileJson, ServerRequestLineRefusesTextThatIsNotUtf8) {
  ServerRequest request;
  request.request = full_request();
  request.request.source += "// caf\xe9\n";  // Latin-1: JSON would have to alter it
  EXPECT_THROW((void)server_request_line(request), nlohmann::json::type_error);
}

TEST(CompileJson, ServerReplyLinesRoundTrip) {
  ServerReply ok;
  ok.id = 7;
  ok.outcome = full_outcome();
  auto const ok_back = parse_server_reply(server_reply_line(ok));
  ASSERT_TRUE(ok_back) << ok_back.error().message;
  ASSERT_TRUE(ok_back->id.has_value());
  EXPECT_EQ(*ok_back->id, 7);
  ASSERT_TRUE(ok_back->outcome) << ok_back->outcome.error().message;
  expect_same(*ok_back->outcome, full_outcome());

  ServerReply error;
  error.outcome = make_error(ErrorCode::toolchain_error, "NVRTC failed");
  auto const error_back = parse_server_reply(server_reply_line(error));
  ASSERT_TRUE(error_back) << error_back.error().message;
  EXPECT_FALSE(error_back->id.has_value());
  ASSERT_FALSE(error_back->outcome);
  EXPECT_EQ(error_back->outcome.error().code, ErrorCode::toolchain_error);
  EXPECT_EQ(error_back->outcome.error().message, "NVRTC failed");
}

TEST(CompileJson, ReplyDiagnosticsThatAreNotUtf8AreReplacedNotThrown) {
  ServerReply reply;
  reply.id = 1;
  CompileOutcome outcome;
  outcome.diagnostics = "cand.cu(1): error: bad byte \xff here";
  reply.outcome = outcome;
  auto const back = parse_server_reply(server_reply_line(reply));
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_TRUE(back->outcome);
  EXPECT_NE(back->outcome->diagnostics.find("error: bad byte"), std::string::npos);
}

Result<ServerReply> serve(std::string const& line) {
  std::string const reply = serve_compile_line(line);
  EXPECT_EQ(reply.find('\n'), std::string::npos);
  return parse_server_reply(reply);
}

TEST(CompileServer, BadLinesGetAnErrorReplyNeverACrash) {
  for (std::string const line : {"not json", "[1,2]", "{\"id\":", "{}", "null", "{\"id\":\"x\"}"}) {
    auto const reply = serve(line);
    ASSERT_TRUE(reply) << line << ": " << reply.error().message;
    ASSERT_FALSE(reply->outcome) << line;
    EXPECT_EQ(reply->outcome.error().code, ErrorCode::invalid_argument) << line;
    EXPECT_NE(reply->outcome.error().message.find("kopt-compile request line"), std::string::npos)
        << reply->outcome.error().message;
  }
}

TEST(CompileServer, ARejectedRequestKeepsItsIdAndNamesTheField) {
  auto const reply = serve(R"({"id": 9, "key": "0123456789abcdef0123456789abcdef", "options": {}})");
  ASSERT_TRUE(reply) << reply.error().message;
  ASSERT_TRUE(reply->id.has_value());
  EXPECT_EQ(*reply->id, 9);
  ASSERT_FALSE(reply->outcome);
  EXPECT_NE(reply->outcome.error().message.find("field 'options'"), std::string::npos)
      << reply->outcome.error().message;
}

ServerRequest valid_request(std::filesystem::path const& cache_dir) {
  ServerRequest request;
  request.id = 3;
  request.key = "00112233445566778899aabbccddeeff";
  request.options.arch = "sm_90";
  request.options.cuda_home = find_cuda_home();
  request.options.cache_dir = cache_dir;
  request.request =
      kopt::testing::kernel_request("extern \"C\" __global__ void k(float* o) { o[0] = 1.0f; }", "k");
  return request;
}

TEST(CompileServer, RefusesLauncherModeAKeyThatIsNotHexAndAMissingCache) {
  TempDir cache;
  ServerRequest launcher = valid_request(cache.path());
  launcher.request.mode = CandidateMode::launcher;
  auto const launcher_reply = serve(server_request_line(launcher));
  ASSERT_TRUE(launcher_reply && !launcher_reply->outcome);
  EXPECT_NE(launcher_reply->outcome.error().message.find("kernel-mode requests only"), std::string::npos)
      << launcher_reply->outcome.error().message;

  ServerRequest escaping = valid_request(cache.path());
  escaping.key = "../../etc/passwd";
  auto const key_reply = serve(server_request_line(escaping));
  ASSERT_TRUE(key_reply && !key_reply->outcome);
  EXPECT_NE(key_reply->outcome.error().message.find("field 'key'"), std::string::npos)
      << key_reply->outcome.error().message;

  ServerRequest nowhere = valid_request(cache.path() / "missing");
  auto const cache_reply = serve(server_request_line(nowhere));
  ASSERT_TRUE(cache_reply && !cache_reply->outcome);
  EXPECT_EQ(cache_reply->outcome.error().code, ErrorCode::io_error);
  EXPECT_NE(cache_reply->outcome.error().message.find("options.cache_dir"), std::string::npos);
  EXPECT_TRUE(std::filesystem::is_empty(cache.path()));
}

TEST(CompileServer, CompilesAValidRequestIntoTheCacheUnderTheGivenKey) {
  TempDir cache;
  ServerRequest const request = valid_request(cache.path());
  auto const reply = serve(server_request_line(request));
  ASSERT_TRUE(reply) << reply.error().message;
  ASSERT_TRUE(reply->outcome) << reply->outcome.error().message;
  EXPECT_TRUE(reply->outcome->ok) << reply->outcome->diagnostics;
  EXPECT_EQ(reply->outcome->artifact.key, request.key);
  EXPECT_EQ(reply->outcome->artifact.symbol, "k");
  EXPECT_EQ(reply->outcome->artifact.path, cache.path() / (request.key + ".cubin"));
  EXPECT_GT(std::filesystem::file_size(reply->outcome->artifact.path), 0u);
  EXPECT_TRUE(std::filesystem::exists(cache.path() / (request.key + ".json")));
}

}  // namespace compile_json_test
}  // namespace kopt::detail
