// generate_kernels against a real HTTP server on loopback (the stub of tests/llm) that injects faults: a
// reply without code, a kernel that does not compile, one that stays wrong, a 429 with Retry-After, a limit
// on calls. The run survives each, records it, and keeps what verified; the API key is stored nowhere.
#include <gtest/gtest.h>

#include "generate/generate_fixtures.hpp"
#include "kopt/runs.hpp"
#include "llm/llm_fixtures.hpp"
#include "llm/stub_server.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace generate_http_test {

using test::kernel_reply;
using test::openai_body;
using test::StubReply;

constexpr char const* kApiKey = "sk-kopt-test-4f9a1c7e2b";

struct GenerateOverHttp : ::testing::Test {
  void SetUp() override {
    auto opened = Store::open(dir.path() / "store" / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store.emplace(std::move(*opened));
  }

  GenerateLlm llm(LlmLimits limits = {}) {
    LlmConfig config;
    config.kind = LlmKind::openai;
    config.base_url = server.url("/v1");
    config.model = "test-model";
    config.api_key = kApiKey;
    config.retries.max_attempts = 3;
    config.prices.models["served-model"] = LlmPrice{1.0, 0.5, 2.0};
    config.prices.models["test-model"] = LlmPrice{1.0, 0.5, 2.0};
    auto made = make_generate_llm(config, limits, time.hooks());
    EXPECT_TRUE(made) << made.error().message;
    return std::move(*made);
  }

  Result<GenerateResult> generate(GenerateLlm& llm, std::size_t strategies, int repairs) {
    auto options = test::generate_options();
    options.strategies = strategies;
    options.repairs = repairs;
    options.backend_kind = llm.kind;
    options.model = llm.model;
    options.secret = llm.secret;
    options.limits = llm.budget->limits();
    return generate_kernels(task, &library, *llm.backend, evaluator, *store, options,
                            [this](GenerateAttempt const& attempt) { progress.push_back(attempt.status); });
  }

  // The user message of the n-th request the server received (0-based).
  std::string prompt_of(std::size_t n) {
    auto const requests = server.requests();
    EXPECT_LT(n, requests.size());
    if (n >= requests.size()) return {};
    auto const body = nlohmann::json::parse(requests[n].body);
    return body["messages"].back()["content"].get<std::string>();
  }

  test::TempDir dir;
  test::StubServer server;
  test::FakeTime time;
  std::optional<Store> store;
  TaskSpec task = test::softmax_task();
  StrategyLibrary library = test::strategy_library();
  test::MarkerEvaluator evaluator;
  std::vector<std::string> progress;
};

TEST_F(GenerateOverHttp, FaultsAreRecordedRepairedAndBounded) {
  server.script({
      // drafts: warp_per_row writes no code, block_per_row does not compile, register_rows is wrong
      StubReply{200, openai_body("I would give each row to a warp and reduce with shuffles."), {}, {}, false},
      StubReply{200, openai_body(kernel_reply("compile_error")), {}, {}, false},
      StubReply{200, openai_body(kernel_reply("wrong_output", "first")), {}, {}, false},
      // repair 1: the generator again (429 first, then a kernel), the coder fixes, the coder fails again
      StubReply{429, R"({"error":{"message":"slow down"}})", {{"Retry-After", "1"}}, {}, false},
      StubReply{200, openai_body(kernel_reply("ok 1.5")), {}, {}, false},
      StubReply{200, openai_body(kernel_reply("ok 2.25")), {}, {}, false},
      StubReply{200, openai_body(kernel_reply("wrong_output", "second")), {}, {}, false},
      // repair 2: the wrong one stays wrong; nothing more is asked
      StubReply{200, openai_body(kernel_reply("wrong_output", "third")), {}, {}, false},
  });
  auto backend = llm();
  auto result = generate(backend, 4, 2);
  ASSERT_TRUE(result) << result.error().message;

  EXPECT_EQ(result->strategies, (std::vector<std::string>{"softmax_warp_per_row", "softmax_block_per_row",
                                                          "softmax_register_rows"}));
  EXPECT_EQ(test::statuses(*result), (std::vector<std::string>{"no_code", "compile_error", "wrong_output",
                                                               "ok", "ok", "wrong_output", "wrong_output"}));
  EXPECT_EQ(progress.size(), 7U);
  EXPECT_EQ(server.requests().size(), 8U);  // the 429 was retried inside the one call
  ASSERT_EQ(time.sleeps.size(), 1U);
  EXPECT_EQ(time.sleeps[0], std::chrono::milliseconds(1000));
  EXPECT_EQ(result->llm_calls, 7);
  EXPECT_EQ(result->stop_reason, "done");
  EXPECT_TRUE(result->cost_complete);
  EXPECT_NEAR(result->cost_usd, 7 * (120 * 1.0 + 30 * 2.0) / 1e6, 1e-12);

  auto const& attempts = result->attempts;
  EXPECT_EQ(attempts[0].role, "generator");
  EXPECT_EQ(attempts[3].role, "generator");  // no kernel to repair: the generator is asked again
  EXPECT_EQ(attempts[3].round, 1);
  EXPECT_EQ(attempts[4].role, "coder");
  EXPECT_EQ(attempts[6].round, 2);
  EXPECT_EQ(attempts[6].strategy, "softmax_register_rows");
  // The repair prompts carry what went wrong.
  EXPECT_NE(prompt_of(4).find("the reply holds no code"), std::string::npos) << prompt_of(4);
  EXPECT_NE(prompt_of(5).find("identifier \"blockDimx\" is undefined"), std::string::npos);
  EXPECT_NE(prompt_of(5).find("status: compile_error"), std::string::npos);
  EXPECT_NE(prompt_of(5).find("// fake: compile_error"), std::string::npos);  // the kernel to repair
  EXPECT_NE(prompt_of(6).find("size odd: wrong_output"), std::string::npos);
  EXPECT_NE(prompt_of(7).find("// second"), std::string::npos);  // round 2 repairs round 1's kernel

  ASSERT_TRUE(result->best);
  EXPECT_EQ(*result->best, 4U);  // the repaired block_per_row kernel, 2.25x
  EXPECT_DOUBLE_EQ(result->best_screen_speedup.value_or(0), 2.25);
  ASSERT_TRUE(result->confirmed);
  EXPECT_EQ(result->confirmed->status, CandidateStatus::ok);
  EXPECT_NE(result->best_source.find("// fake: ok 2.25"), std::string::npos);
  EXPECT_EQ(evaluator.seen.back().tier, TimingTier::confirm);

  // The store: a generate run with its candidates and every call.
  auto calls = store->llm_calls_for_run(result->run);
  ASSERT_TRUE(calls) << calls.error().message;
  ASSERT_EQ(calls->size(), 7U);
  EXPECT_FALSE((*calls)[0].call.candidate);  // no code, no candidate
  EXPECT_EQ((*calls)[1].call.candidate, attempts[1].candidate);
  EXPECT_EQ((*calls)[1].call.role, "generator");
  EXPECT_EQ((*calls)[5].call.role, "coder");
  EXPECT_EQ((*calls)[4].call.purpose, "softmax_block_per_row, repair 1");
  EXPECT_EQ((*calls)[6].call.purpose, "softmax_register_rows, repair 2");
  EXPECT_EQ((*calls)[1].call.model, "served-model");
  EXPECT_EQ((*calls)[1].call.backend, "openai");
  EXPECT_EQ((*calls)[1].call.input_tokens, 120);
  EXPECT_EQ((*calls)[1].call.output_tokens, 30);
  EXPECT_EQ((*calls)[1].call.request_sha256.size(), 64U);
  EXPECT_EQ((*calls)[1].call.status, "ok");
  auto history = store->load_run(result->run);
  ASSERT_TRUE(history);
  EXPECT_EQ(history->run.status, RunStatus::finished);
  EXPECT_EQ(history->run.run.options["strategy"], "generate");
  EXPECT_EQ(history->candidates.size(), 6U);
  EXPECT_EQ(history->candidates[3].candidate.action, "repair:softmax_block_per_row");
  EXPECT_EQ(history->candidates[3].candidate.parent, history->candidates[0].id);
  EXPECT_EQ(history->candidates[0].candidate.action, "generate:softmax_block_per_row");
  auto best = store->best_verified_candidate(result->run);
  ASSERT_TRUE(best && *best);
  EXPECT_EQ((*best)->candidate.id, attempts[4].candidate);
  EXPECT_EQ((*best)->evaluation.evaluation.tier, "confirm");
  auto runs = summarise_runs(*store);
  ASSERT_TRUE(runs);
  EXPECT_EQ(runs->back().strategy, "generate");

  // The API key went to the server, and nowhere else.
  EXPECT_EQ(server.requests()[0].header("Authorization"), std::string("Bearer ") + kApiKey);
  store.reset();
  EXPECT_EQ(test::folder_bytes(dir.path() / "store").find(kApiKey), std::string::npos);
}

TEST_F(GenerateOverHttp, MaxCallsStopsCleanlyAndKeepsTheVerifiedKernel) {
  server.script({StubReply{200, openai_body(kernel_reply("ok 1.75")), {}, {}, false},
                 StubReply{200, openai_body(kernel_reply("compile_error")), {}, {}, false}});
  auto backend = llm(LlmLimits{std::nullopt, 2});
  auto result = generate(backend, 3, 2);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(test::statuses(*result), (std::vector<std::string>{"ok", "compile_error", "budget_exhausted"}));
  EXPECT_EQ(server.requests().size(), 2U);
  EXPECT_EQ(result->llm_calls, 2);
  EXPECT_NE(result->stop_reason.find("LLM budget exhausted"), std::string::npos) << result->stop_reason;
  EXPECT_FALSE(result->attempts[2].call);
  ASSERT_TRUE(result->best);
  EXPECT_EQ(*result->best, 0U);
  EXPECT_DOUBLE_EQ(result->best_screen_speedup.value_or(0), 1.75);
  auto calls = store->llm_calls_for_run(result->run);
  ASSERT_TRUE(calls);
  EXPECT_EQ(calls->size(), 2U);  // a refused call is not a call
  auto history = store->load_run(result->run);
  ASSERT_TRUE(history);
  EXPECT_EQ(history->run.status, RunStatus::finished);
  EXPECT_EQ(history->run.run.budget["llm_calls"], 2);
}

TEST_F(GenerateOverHttp, AFailedCallIsRecordedRedactedAndTheRunGoesOn) {
  std::string const echo =
      std::string(R"({"error":{"message":"invalid request for key )") + kApiKey + R"("}})";
  server.script({StubReply{400, echo, {}, {}, false},
                 StubReply{200, openai_body(kernel_reply("ok 1.2")), {}, {}, false}});
  auto backend = llm();
  auto result = generate(backend, 2, 1);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(test::statuses(*result), (std::vector<std::string>{"llm_error", "ok"}));
  EXPECT_EQ(result->attempts[0].message.find(kApiKey), std::string::npos);
  EXPECT_NE(result->attempts[0].message.find("[redacted]"), std::string::npos) << result->attempts[0].message;
  auto calls = store->llm_calls_for_run(result->run);
  ASSERT_TRUE(calls);
  ASSERT_EQ(calls->size(), 2U);
  EXPECT_EQ((*calls)[0].call.status, "error");
  EXPECT_NE((*calls)[0].call.error.find("HTTP 400"), std::string::npos) << (*calls)[0].call.error;
  EXPECT_EQ(render_generate(*result).find(kApiKey), std::string::npos);
  EXPECT_EQ(generate_to_json(*result).dump().find(kApiKey), std::string::npos);
  store.reset();
  EXPECT_EQ(test::folder_bytes(dir.path() / "store").find(kApiKey), std::string::npos);
}

}  // namespace generate_http_test
}  // namespace kopt
