// The recorded replies the GPU end to end uses (examples/softmax/llm-replay/optimize.jsonl), on the real
// softmax_warp_kernel.cu: consumed in the order the search asks, the deliberately wrong edit (it quotes
// the kernel wrongly) rejected and repaired, the run stopped cleanly by --max-calls when the recording is
// spent, and every kernel the edits make compiled by nvcc for sm_90 (no GPU needed).
#include <gtest/gtest.h>

#include "source_search/source_search_fixtures.hpp"
#include "support/nvcc.hpp"

namespace kopt {
namespace replay_test {

using SourceSearch = test::SourceSearchTest;

namespace fs = std::filesystem;

fs::path const kReplayFile = test::kSoftmaxDir / "llm-replay" / "optimize.jsonl";
fs::path const kRoot = test::kSoftmaxDir / "candidates" / "softmax_warp_kernel.cu";

TEST_F(SourceSearch, TheSoftmaxRecordingIsConsumedInOrderAndEveryKernelCompiles) {
  LlmConfig config;
  config.kind = LlmKind::replay;
  config.replay_file = kReplayFile;
  auto llm = make_generate_llm(config, LlmLimits{std::nullopt, 7});  // the recording holds 7 replies
  ASSERT_TRUE(llm) << llm.error().message;
  StrategyLibrary const library = test::strategy_library();
  auto options = test::search_options();
  options.backend_kind = llm->kind;
  options.max_evaluations = 24;
  options.limits = LlmLimits{std::nullopt, 7};
  auto result = search(options, llm->backend.get(), test::read_file(kRoot), &library);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_NE(result->stop_reason.find("LLM budget"), std::string::npos) << result->stop_reason;
  EXPECT_EQ(result->llm_calls, 7);
  ASSERT_EQ(result->steps.size(), 4U);  // three edits of the root, then the refused call
  EXPECT_EQ(result->steps[0].round_statuses, (std::vector<std::string>{"edit_not_found", "ok"}));
  EXPECT_EQ(result->steps[1].round_statuses, std::vector<std::string>{"ok"});
  EXPECT_EQ(result->steps[2].round_statuses, std::vector<std::string>{"ok"});
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(result->steps[i].parent, 0U);
    EXPECT_FALSE(result->steps[i].rationale.empty());
  }
  ASSERT_EQ(result->nodes.size(), 4U);
  EXPECT_NE(result->nodes[1].source.find("* inv"), std::string::npos);
  EXPECT_NE(result->nodes[2].source.find("__ldg"), std::string::npos);
  EXPECT_NE(result->nodes[3].source.find("#pragma unroll 8"), std::string::npos);

  auto const nvcc = test::nvcc_path();
  if (!nvcc) GTEST_SKIP() << "nvcc not found: the edited kernels were not compiled";
  for (std::size_t i = 1; i < result->nodes.size(); ++i) {
    std::string const failed =
        test::nvcc_compile_failure(*nvcc, result->nodes[i].source, dir.path(), "node" + std::to_string(i));
    EXPECT_EQ(failed, "") << "node " << i << " does not compile";
  }
}

}  // namespace replay_test
}  // namespace kopt
