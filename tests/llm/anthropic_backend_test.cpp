// The Anthropic Messages backend over real HTTP on loopback.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kopt/llm.hpp"
#include "llm/llm_fixtures.hpp"
#include "llm/stub_server.hpp"

namespace kopt {
namespace anthropic_backend_test {

using std::chrono::milliseconds;
using test::anthropic_body;
using test::simple_request;
using test::StubReply;

constexpr char kKey[] = "sk-ant-api03-VERYSECRET-0123456789";

class AnthropicBackendTest : public ::testing::Test {
 protected:
  std::unique_ptr<LlmBackend> backend() {
    LlmConfig config;
    config.kind = LlmKind::anthropic;
    config.base_url = server.url();
    config.model = "claude-test";
    config.api_key_env = "ANTHROPIC_API_KEY";
    config.retries.max_attempts = 3;
    config.prices.models["claude-test"] = LlmPrice{3.0, 0.3, 15.0};
    auto hooks = time.hooks();
    hooks.getenv = [](std::string const& name) -> std::optional<std::string> {
      if (name == "ANTHROPIC_API_KEY") return std::string(kKey);
      return std::nullopt;
    };
    auto made = make_llm_backend(config, hooks);
    EXPECT_TRUE(made) << made.error().message;
    return std::move(made).value();
  }

  test::StubServer server;
  test::FakeTime time;
};

TEST_F(AnthropicBackendTest, SendsHeadersAndBodyAndParsesUsageWithCacheReads) {
  server.script({StubReply{200, anthropic_body("kernel text", 100, 20, 1000), {}, {}, false}});
  auto request = simple_request();
  request.stop = {"###"};
  auto reply = backend()->complete(request);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "kernel text");
  EXPECT_EQ(reply->finish_reason, "end_turn");
  EXPECT_EQ(reply->backend, "anthropic");
  EXPECT_EQ(reply->model, "claude-test");
  EXPECT_EQ(reply->usage.input_tokens, 1100);  // the whole prompt: uncached + read from the cache
  EXPECT_EQ(reply->usage.cached_input_tokens, 1000);
  EXPECT_EQ(reply->usage.output_tokens, 20);
  ASSERT_TRUE(reply->cost_usd);
  EXPECT_NEAR(*reply->cost_usd, (100 * 3.0 + 1000 * 0.3 + 20 * 15.0) / 1e6, 1e-12);

  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(requests[0].path, "/v1/messages");
  EXPECT_EQ(requests[0].header("x-api-key"), kKey);
  EXPECT_EQ(requests[0].header("anthropic-version"), "2023-06-01");
  auto body = nlohmann::json::parse(requests[0].body);
  EXPECT_EQ(body["system"], "You are a CUDA expert.");
  EXPECT_EQ(body["model"], "claude-test");
  EXPECT_EQ(body["max_tokens"], 256);
  EXPECT_EQ(body["stop_sequences"], nlohmann::json::array({"###"}));
  ASSERT_EQ(body["messages"].size(), 1U);
  EXPECT_EQ(body["messages"][0]["role"], "user");
}

TEST_F(AnthropicBackendTest, OverloadedIsRetriedThenSucceeds) {
  server.script({StubReply{529,
                           R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})",
                           {},
                           {},
                           false},
                 StubReply{200, anthropic_body("fine"), {}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "fine");
  EXPECT_EQ(reply->attempts, 2);
  EXPECT_EQ(time.sleeps.size(), 1U);
}

TEST_F(AnthropicBackendTest, AuthenticationErrorIsFinalAndRedacted) {
  std::string const body =
      std::string(R"({"type":"error","error":{"type":"authentication_error","message":"bad key )") + kKey +
      R"("}})";
  server.script({StubReply{401, body, {}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("HTTP 401"), std::string::npos);
  EXPECT_NE(reply.error().message.find("ANTHROPIC_API_KEY"), std::string::npos) << reply.error().message;
  EXPECT_EQ(reply.error().message.find(kKey), std::string::npos) << reply.error().message;
  EXPECT_EQ(server.requests().size(), 1U);
}

TEST_F(AnthropicBackendTest, SpendLimitIsNotRetried) {
  server.script({StubReply{
      429,
      R"({"type":"error","error":{"type":"rate_limit_error","message":"enforced_spend_limit_reached"}})",
      {{"retry-after", "5"}},
      {},
      false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("spend limit"), std::string::npos) << reply.error().message;
  EXPECT_EQ(server.requests().size(), 1U);
}

TEST_F(AnthropicBackendTest, ReplyWithoutTextOrUnknownModel) {
  server.script(
      {StubReply{
           200, R"({"content":[{"type":"tool_use","id":"t"}],"stop_reason":"tool_use"})", {}, {}, false},
       StubReply{404,
                 R"({"type":"error","error":{"type":"not_found_error","message":"model: claude-nope"}})",
                 {},
                 {},
                 false}});
  auto llm = backend();
  auto empty = llm->complete(simple_request());
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("no text block"), std::string::npos) << empty.error().message;
  auto request = simple_request();
  request.model = "claude-nope";
  auto unknown = llm->complete(request);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::not_found);
  EXPECT_NE(unknown.error().message.find("claude-nope"), std::string::npos) << unknown.error().message;
}

}  // namespace anthropic_backend_test
}  // namespace kopt
