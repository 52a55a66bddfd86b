// The OpenAI-compatible backend over real HTTP on loopback, against a scripted stub server.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "kopt/llm.hpp"
#include "llm/llm_fixtures.hpp"
#include "llm/stub_server.hpp"

namespace kopt {
namespace openai_backend_test {

using std::chrono::milliseconds;
using test::openai_body;
using test::simple_request;
using test::StubReply;

constexpr char kKey[] = "sk-test-SECRET-4f9a1c77e2";

class OpenAiBackendTest : public ::testing::Test {
 protected:
  std::unique_ptr<LlmBackend> backend(std::string const& key = kKey, int max_attempts = 3) {
    LlmConfig config;
    config.kind = LlmKind::openai;
    config.base_url = server.url("/v1/");
    config.model = "qwen-coder";
    config.api_key = key;
    config.retries.max_attempts = max_attempts;
    config.timeouts.connect = milliseconds(2000);
    config.timeouts.idle = milliseconds(1000);
    config.timeouts.overall = milliseconds(8000);
    config.prices.models["qwen-coder"] = LlmPrice{2.0, 0.5, 8.0};
    auto made = make_llm_backend(config, time.hooks());
    EXPECT_TRUE(made) << made.error().message;
    return std::move(made).value();
  }

  test::StubServer server;
  test::FakeTime time;
};

TEST_F(OpenAiBackendTest, SendsTheRequestAndParsesTextUsageAndCost) {
  server.script({StubReply{200, openai_body("__global__ void k() {}", 1000, 200, 400, 50), {}, {}, false}});
  auto request = simple_request();
  request.stop = {"</code>"};
  auto reply = backend()->complete(request);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "__global__ void k() {}");
  EXPECT_EQ(reply->finish_reason, "stop");
  EXPECT_EQ(reply->backend, "openai");
  EXPECT_EQ(reply->model, "served-model");
  EXPECT_EQ(reply->attempts, 1);
  EXPECT_FALSE(reply->from_cache);
  EXPECT_GT(reply->latency_ms, 0.0);
  EXPECT_EQ(reply->usage.input_tokens, 1000);
  EXPECT_EQ(reply->usage.output_tokens, 200);
  EXPECT_EQ(reply->usage.cached_input_tokens, 400);
  EXPECT_EQ(reply->usage.reasoning_tokens, 50);
  ASSERT_TRUE(reply->cost_usd);
  EXPECT_NEAR(*reply->cost_usd, (600 * 2.0 + 400 * 0.5 + 200 * 8.0) / 1e6, 1e-12);

  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(requests[0].path, "/v1/chat/completions");
  EXPECT_EQ(requests[0].header("Authorization"), std::string("Bearer ") + kKey);
  auto body = nlohmann::json::parse(requests[0].body);
  EXPECT_EQ(body["model"], "qwen-coder");
  EXPECT_EQ(body["max_tokens"], 256);
  EXPECT_DOUBLE_EQ(body["temperature"].get<double>(), 0.2);
  EXPECT_EQ(body["stop"], nlohmann::json::array({"</code>"}));
  ASSERT_EQ(body["messages"].size(), 2U);
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][0]["content"], "You are a CUDA expert.");
  EXPECT_EQ(body["messages"][1]["role"], "user");
  EXPECT_EQ(body["messages"][1]["content"], "Make this kernel faster.");
}

TEST_F(OpenAiBackendTest, LocalServerWithoutKeyGetsNoAuthorizationHeaderAndUnknownPriceIsUnknownCost) {
  server.script({StubReply{200, openai_body("ok"), {}, {}, false}});
  auto request = simple_request();
  request.model = "llama-local";  // no price in the table
  auto reply = backend("")->complete(request);
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_FALSE(reply->cost_usd.has_value());
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(requests[0].header("Authorization"), "");
  EXPECT_EQ(nlohmann::json::parse(requests[0].body)["model"], "llama-local");
}

TEST_F(OpenAiBackendTest, MissingUsageMeansUnknownCostNotZero) {
  server.script({StubReply{
      200, R"({"choices":[{"message":{"content":"hi"},"finish_reason":"stop"}]})", {}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "hi");
  EXPECT_FALSE(reply->usage.input_tokens.has_value());
  EXPECT_FALSE(reply->cost_usd.has_value());
}

TEST_F(OpenAiBackendTest, RateLimitWithRetryAfterIsRetriedAfterTheWaitItAsksFor) {
  server.script({StubReply{429,
                           R"({"error":{"message":"Rate limit reached","type":"requests"}})",
                           {{"Retry-After", "3"}},
                           {},
                           false},
                 StubReply{200, openai_body("second time lucky"), {}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "second time lucky");
  EXPECT_EQ(reply->attempts, 2);
  ASSERT_EQ(time.sleeps.size(), 1U);
  EXPECT_EQ(time.sleeps[0], milliseconds(3000));
  EXPECT_EQ(server.requests().size(), 2U);
}

TEST_F(OpenAiBackendTest, RetryAfterAsAnHttpDateWaitsUntilThatDate) {
  // FakeTime::now is 2023-11-14 22:13:20 UTC; the server asks to come back 7 s later.
  server.script(
      {StubReply{503, "upstream busy", {{"Retry-After", "Tue, 14 Nov 2023 22:13:27 GMT"}}, {}, false},
       StubReply{200, openai_body("ok"), {}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_TRUE(reply) << reply.error().message;
  ASSERT_EQ(time.sleeps.size(), 1U);
  EXPECT_EQ(time.sleeps[0], milliseconds(7000));
}

TEST_F(OpenAiBackendTest, ServerErrorThenSuccessBacksOffWithJitter) {
  time.uniform = 0.5;
  server.script({StubReply{500, R"({"error":{"message":"internal"}})", {}, {}, false},
                 StubReply{500, R"({"error":{"message":"internal"}})", {}, {}, false},
                 StubReply{200, openai_body("ok"), {}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->attempts, 3);
  // Full jitter: uniform * base * 2^(retry-1), base 1 s.
  EXPECT_EQ(time.sleeps, (std::vector<milliseconds>{milliseconds(500), milliseconds(1000)}));
}

TEST_F(OpenAiBackendTest, GivesUpAfterMaxAttemptsNamingTheLastFailure) {
  server.script({StubReply{500, "{}", {}, {}, false}, StubReply{502, "{}", {}, {}, false},
                 StubReply{503, R"({"error":{"message":"still down"}})", {}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::io_error);
  EXPECT_NE(reply.error().message.find("failed after 3 attempts"), std::string::npos)
      << reply.error().message;
  EXPECT_NE(reply.error().message.find("HTTP 503"), std::string::npos) << reply.error().message;
  EXPECT_NE(reply.error().message.find("still down"), std::string::npos) << reply.error().message;
  EXPECT_EQ(time.sleeps.size(), 2U);
}

TEST_F(OpenAiBackendTest, RetryAfterLongerThanKoptWaitsFailsAtOnce) {
  server.script({StubReply{429, "{}", {{"Retry-After", "3600"}}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("retry after 3600 s"), std::string::npos) << reply.error().message;
  EXPECT_TRUE(time.sleeps.empty());
  EXPECT_EQ(server.requests().size(), 1U);
}

TEST_F(OpenAiBackendTest, UnauthorizedIsNotRetriedAndTheKeyNeverAppears) {
  std::string const body = std::string(R"({"error":{"message":"Incorrect API key provided: )") + kKey +
                           R"(.","type":"invalid_request_error","code":"invalid_api_key"}})";
  server.script({StubReply{401, body, {}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(reply.error().message.find("rejected the API key (HTTP 401)"), std::string::npos)
      << reply.error().message;
  EXPECT_NE(reply.error().message.find("[redacted]"), std::string::npos) << reply.error().message;
  EXPECT_EQ(reply.error().message.find(kKey), std::string::npos) << reply.error().message;
  EXPECT_EQ(reply.error().message.find("SECRET"), std::string::npos) << reply.error().message;
  EXPECT_EQ(server.requests().size(), 1U);
  EXPECT_TRUE(time.sleeps.empty());
}

TEST_F(OpenAiBackendTest, BadRequestAndQuotaErrorsAreNotRetried) {
  server.script(
      {StubReply{400, R"({"error":{"message":"max_tokens is too large"}})", {}, {}, false},
       StubReply{429,
                 R"({"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}})",
                 {{"Retry-After", "1"}},
                 {},
                 false}});
  auto llm = backend();
  auto bad = llm->complete(simple_request());
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("rejected the request (HTTP 400): max_tokens is too large"),
            std::string::npos)
      << bad.error().message;
  auto quota = llm->complete(simple_request());
  ASSERT_FALSE(quota);
  EXPECT_NE(quota.error().message.find("quota"), std::string::npos) << quota.error().message;
  EXPECT_EQ(server.requests().size(), 2U);
  EXPECT_TRUE(time.sleeps.empty());
}

TEST_F(OpenAiBackendTest, UnknownModelIsAClearNotFoundError) {
  server.script(
      {StubReply{404,
                 R"({"error":{"message":"The model `nope` does not exist.","code":"model_not_found"}})",
                 {},
                 {},
                 false}});
  auto request = simple_request();
  request.model = "nope";
  auto reply = backend()->complete(request);
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::not_found);
  EXPECT_NE(reply.error().message.find("model 'nope' is unknown"), std::string::npos)
      << reply.error().message;
  EXPECT_EQ(server.requests().size(), 1U);
}

TEST_F(OpenAiBackendTest, StalledReplyTripsTheIdleTimeout) {
  server.script({StubReply{200, openai_body("too late"), {}, milliseconds(5000), false}});
  auto const started = std::chrono::steady_clock::now();
  auto reply = backend(kKey, 1)->complete(simple_request());
  auto const took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("no data from the server for 1 s (the idle timeout)"),
            std::string::npos)
      << reply.error().message;
  EXPECT_LT(took, std::chrono::seconds(4));
  server.stop();  // ends the stalled handler at once
}

TEST_F(OpenAiBackendTest, SlowReplyTripsTheOverallTimeout) {
  LlmConfig config;
  config.base_url = server.url("/v1");
  config.model = "m";
  config.retries.max_attempts = 1;
  config.timeouts.idle = std::chrono::seconds(30);
  config.timeouts.overall = milliseconds(700);
  auto llm = make_llm_backend(config, time.hooks());
  ASSERT_TRUE(llm);
  server.script({StubReply{200, openai_body("too late"), {}, milliseconds(5000), false}});
  auto reply = (*llm)->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("no complete reply within 0.7 s (the overall timeout)"),
            std::string::npos)
      << reply.error().message;
  server.stop();
}

TEST_F(OpenAiBackendTest, CutConnectionIsRetried) {
  server.script({StubReply{200, R"({"choices":[{"mess)", {}, {}, true},
                 StubReply{200, openai_body("whole"), {}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_EQ(reply->text, "whole");
  EXPECT_EQ(reply->attempts, 2);
}

TEST_F(OpenAiBackendTest, CutConnectionEveryTimeNamesTheCut) {
  server.script({StubReply{200, "{", {}, {}, true}});
  auto reply = backend(kKey, 1)->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("connection was cut"), std::string::npos) << reply.error().message;
}

TEST_F(OpenAiBackendTest, MalformedRepliesAreClearErrorsNotCrashes) {
  server.script(
      {StubReply{200, "{this is not json", {}, {}, false}, StubReply{200, R"({"choices":[]})", {}, {}, false},
       StubReply{200, R"({"choices":[{"message":{"content":null},"finish_reason":"stop"}]})", {}, {}, false},
       StubReply{200, R"({"id":"x"})", {}, {}, false},
       StubReply{200,
                 R"({"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":"many"}})",
                 {},
                 {},
                 false},
       StubReply{200, R"([1,2,3])", {}, {}, false}});
  auto llm = backend();
  std::vector<std::string> const expected = {"is not a JSON object",
                                             "field choices: empty",
                                             "field choices[0].message.content: expected a string",
                                             "field choices: expected an array",
                                             "field usage.prompt_tokens",
                                             "is not a JSON object"};
  for (auto const& words : expected) {
    auto reply = llm->complete(simple_request());
    ASSERT_FALSE(reply) << words;
    EXPECT_EQ(reply.error().code, ErrorCode::io_error);
    EXPECT_NE(reply.error().message.find(words), std::string::npos) << reply.error().message;
  }
  EXPECT_EQ(server.requests().size(), expected.size());  // none retried
}

TEST_F(OpenAiBackendTest, ErrorObjectInASuccessfulReplyIsReported) {
  server.script({StubReply{200, R"({"error":{"message":"provider returned error"}})", {}, {}, false}});
  auto reply = backend()->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("provider returned error"), std::string::npos)
      << reply.error().message;
}

TEST(OpenAiBackendUnreachable, SaysTheServerIsNotRunningAfterRetrying) {
  int port = 0;
  {
    test::StubServer closed;  // a port that was free a moment ago, and is closed now
    port = closed.port();
  }
  test::FakeTime time;
  LlmConfig config;
  config.base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";
  config.model = "m";
  config.retries.max_attempts = 2;
  auto llm = make_llm_backend(config, time.hooks());
  ASSERT_TRUE(llm) << llm.error().message;
  auto reply = (*llm)->complete(simple_request());
  ASSERT_FALSE(reply);
  EXPECT_NE(reply.error().message.find("cannot connect to " + config.base_url + ": is the server running?"),
            std::string::npos)
      << reply.error().message;
  EXPECT_EQ(time.sleeps.size(), 1U);
}

}  // namespace openai_backend_test
}  // namespace kopt
