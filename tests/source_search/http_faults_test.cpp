// The source search against a real HTTP server on loopback (the stub of tests/llm) that injects transport
// faults: a 429 with Retry-After and a cut connection (retried by the backend), and a 500 that outlasts the
// retries (a failed call: a recorded step, the run goes on). The API key is stored nowhere.
#include <gtest/gtest.h>

#include "llm/llm_fixtures.hpp"
#include "llm/stub_server.hpp"
#include "source_search/source_search_fixtures.hpp"

namespace kopt {
namespace http_faults_test {

using SourceSearch = test::SourceSearchTest;

using test::openai_body;
using test::StubReply;

constexpr char const* kApiKey = "sk-kopt-search-7d1e0b9c44";

TEST_F(SourceSearch, TransportFaultsAreRetriedOrRecordedAndTheRunGoesOn) {
  test::StubServer server;
  test::FakeTime time;
  std::string const plan = "Use float4 loads.";
  server.script({
      StubReply{429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "1"}}, {}, false},
      StubReply{200, openai_body(test::planner_reply(plan)), {}, {}, false},
      StubReply{500, R"({"error":{"message":"internal"}})", {}, {}, false},
      StubReply{500, R"({"error":{"message":"internal"}})", {}, {}, false},
      StubReply{200, openai_body(test::planner_reply(plan)), {}, {}, true},  // cut mid-reply
      StubReply{200, openai_body(test::planner_reply(plan)), {}, {}, false},
      StubReply{200, openai_body(test::marker_edit("ok 1.0", "ok 2.0")), {}, {}, false},
  });
  LlmConfig config;
  config.kind = LlmKind::openai;
  config.base_url = server.url("/v1");
  config.model = "test-model";
  config.api_key = kApiKey;
  config.retries.max_attempts = 2;
  auto llm = make_generate_llm(config, {}, time.hooks());
  ASSERT_TRUE(llm) << llm.error().message;
  auto options = test::search_options();
  options.max_evaluations = 2;
  options.backend_kind = llm->kind;
  options.model = llm->model;
  options.secret = llm->secret;
  auto result = search(options, llm->backend.get());
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(result->steps.size(), 2U);
  EXPECT_EQ(result->steps[0].status, "llm_error");
  EXPECT_NE(result->steps[0].message.find("500"), std::string::npos) << result->steps[0].message;
  EXPECT_EQ(result->steps[1].status, "ok");
  EXPECT_DOUBLE_EQ(result->incumbent_screen_speedup.value_or(0), 2.0);
  EXPECT_FALSE(time.sleeps.empty());  // the 429's Retry-After and the backoffs were waited (fake clock)

  auto const llm_rows = calls(result->run);
  ASSERT_EQ(llm_rows.size(), 4U);
  EXPECT_EQ(llm_rows[0].call.role, "planner");
  EXPECT_EQ(llm_rows[0].call.status, "ok");
  EXPECT_EQ(llm_rows[1].call.role, "coder");
  EXPECT_EQ(llm_rows[1].call.status, "error");
  EXPECT_FALSE(llm_rows[1].call.candidate);
  EXPECT_EQ(llm_rows[3].call.status, "ok");
  EXPECT_TRUE(llm_rows[3].call.candidate);
  EXPECT_EQ(test::folder_bytes(dir.path()).find(kApiKey), std::string::npos);
}

}  // namespace http_faults_test
}  // namespace kopt
