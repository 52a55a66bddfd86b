// generate_kernels with the replay backend: scripted replies (one per strategy, then repairs) consumed in
// order, and the recorded replies of examples/softmax/llm-replay/generate.jsonl that the GPU end to end
// uses: consumed in the order the run asks, each kernel extracted and compiled by nvcc (no GPU needed).
#include <gtest/gtest.h>

#include <cstdlib>

#include "generate/generate_fixtures.hpp"
#include "support/nvcc.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace generate_replay_test {

namespace fs = std::filesystem;

std::filesystem::path const kReplayFile = test::kSoftmaxDir / "llm-replay" / "generate.jsonl";

struct GenerateWithReplay : ::testing::Test {
  void SetUp() override {
    auto opened = Store::open(dir.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store.emplace(std::move(*opened));
  }
  Result<GenerateResult> generate(fs::path const& replay, GenerateOptions options) {
    LlmConfig config;
    config.kind = LlmKind::replay;
    config.replay_file = replay;
    auto llm = make_generate_llm(config, {});
    if (!llm) return llm.error();
    options.backend_kind = llm->kind;
    return generate_kernels(task, &library, *llm->backend, evaluator, *store, options);
  }

  test::TempDir dir;
  std::optional<Store> store;
  TaskSpec task = test::softmax_task();
  StrategyLibrary library = test::strategy_library();
  test::MarkerEvaluator evaluator;
};

TEST_F(GenerateWithReplay, ScriptedRepliesAreConsumedInOrder) {
  fs::path const replay = dir.path() / "replies.jsonl";
  {
    std::ofstream out(replay);
    for (auto const& text : {test::kernel_reply("ok 1.5", "first"), test::kernel_reply("timeout", "second"),
                             test::kernel_reply("ok 3", "third")}) {
      out << nlohmann::json{{"text", text}, {"usage", {{"input_tokens", 10}, {"output_tokens", 20}}}}.dump()
          << '\n';
    }
  }
  auto options = test::generate_options();
  options.strategies = 2;
  options.repairs = 1;
  auto result = generate(replay, options);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(test::statuses(*result), (std::vector<std::string>{"ok", "timeout", "ok"}));
  ASSERT_EQ(evaluator.seen.size(), 4U);  // two drafts, one repair, one confirm
  EXPECT_EQ(evaluator.seen[0].name, "softmax_warp_per_row");
  EXPECT_NE(evaluator.seen[0].source.find("// first"), std::string::npos);
  EXPECT_EQ(evaluator.seen[1].name, "softmax_block_per_row");
  EXPECT_EQ(evaluator.seen[2].name, "softmax_block_per_row#repair1");
  EXPECT_NE(evaluator.seen[2].source.find("// third"), std::string::npos);
  EXPECT_EQ(evaluator.seen[3].tier, TimingTier::confirm);
  EXPECT_EQ(*result->best, 2U);
  EXPECT_EQ(result->attempts[0].usage.output_tokens, 20);
  EXPECT_DOUBLE_EQ(result->cost_usd, 0.0);  // replays cost nothing
  auto calls = store->llm_calls_for_run(result->run);
  ASSERT_TRUE(calls);
  ASSERT_EQ(calls->size(), 3U);
  EXPECT_EQ((*calls)[0].call.backend, "replay");
  EXPECT_EQ((*calls)[2].call.role, "coder");
  EXPECT_EQ((*calls)[0].call.rationale, "Here is the kernel.");  // the reply's prose, without its code

  auto const json = generate_to_json(*result);
  EXPECT_EQ(json["schema"], "kopt.generate/1");
  EXPECT_EQ(json["attempts"].size(), 3U);
  EXPECT_EQ(json["best"]["strategy"], "softmax_block_per_row");
  EXPECT_EQ(json["best"]["round"], 1);
  EXPECT_EQ(json["confirmed"]["status"], "ok");
  auto const table = render_generate(*result);
  EXPECT_NE(table.find("softmax_block_per_row"), std::string::npos);
  EXPECT_NE(table.find("LLM: 3 calls"), std::string::npos) << table;
  EXPECT_NE(table.find("best: softmax_block_per_row (round 1), 3.00x"), std::string::npos) << table;
}

TEST_F(GenerateWithReplay, ATaskWithoutAFamilyGetsOneGenericRequestAndRunningOutOfRepliesIsAnAttempt) {
  fs::path const replay = dir.path() / "replies.jsonl";
  std::ofstream(replay) << nlohmann::json{{"text", test::kernel_reply("wrong_output")}}.dump() << '\n';
  task.family.clear();
  auto options = test::generate_options();
  options.repairs = 2;
  auto result = generate(replay, options);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->strategies, std::vector<std::string>{"generic"});
  EXPECT_EQ(test::statuses(*result), (std::vector<std::string>{"wrong_output", "llm_error"}));
  EXPECT_NE(result->attempts[1].message.find("has 1 replies"), std::string::npos)
      << result->attempts[1].message;
  EXPECT_FALSE(result->best);
  EXPECT_FALSE(result->confirmed);
  auto const table = render_generate(*result);
  EXPECT_NE(table.find("no kernel passed verification"), std::string::npos);
}

TEST_F(GenerateWithReplay, TheSoftmaxRecordingIsConsumedInOrderAndEveryKernelCompiles) {
  // The second draft is the deliberately wrong one (each warp normalises with its own slice's sum); on the
  // GPU verification rejects it, here the fake evaluator does.
  evaluator.unmarked = CandidateStatus::ok;
  evaluator.fail_names = {"softmax_block_per_row"};
  auto options = test::generate_options();
  auto result = generate(kReplayFile, options);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->strategies, (std::vector<std::string>{"softmax_warp_per_row", "softmax_block_per_row",
                                                          "softmax_register_rows"}));
  EXPECT_EQ(test::statuses(*result), (std::vector<std::string>{"ok", "wrong_output", "ok", "ok"}));
  EXPECT_EQ(result->attempts[3].role, "coder");
  EXPECT_EQ(result->attempts[3].strategy, "softmax_block_per_row");
  EXPECT_EQ(result->llm_calls, 4);  // every recorded reply, no more
  EXPECT_NE(result->attempts[0].source.find("one warp per row"), std::string::npos);
  EXPECT_NE(result->attempts[2].source.find("softmax_register_rows<16>"), std::string::npos);
  EXPECT_NE(result->attempts[3].source.find("__syncthreads"), std::string::npos);

  auto const nvcc = test::nvcc_path();
  if (!nvcc) GTEST_SKIP() << "nvcc not found: the recorded kernels were not compiled";
  for (std::size_t i = 0; i < result->attempts.size(); ++i) {
    std::string const failed = test::nvcc_compile_failure(*nvcc, result->attempts[i].source, dir.path(),
                                                          "kernel" + std::to_string(i));
    EXPECT_EQ(failed, "") << "attempt " << i << " does not compile";
  }
}

}  // namespace generate_replay_test
}  // namespace kopt
