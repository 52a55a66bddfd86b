// Dispatch by size on the GPU (docs/strategies.md, "Dispatch by size"): the library's two row-sum kernels
// as one launcher for suites/algebra/row_sum-bf16 verify on every size case, and each timed case runs the
// kernel planned for it (CUPTI's kernel names carry the variant's namespace). Skips without a GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"
#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "kopt/task.hpp"
#include "kopt/tuning.hpp"

namespace kopt::testing {
namespace {

TEST(SizeDispatchOnGpu, TheLibrarysRowSumKernelsVerifyAsOneLauncherAndEachCaseRunsItsOwn) {
  auto evaluator = KoptCandidateEvaluator::create(gpu_test_options());
  if (!evaluator && evaluator.error().code == ErrorCode::no_gpu)
    GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator) << evaluator.error().message;
  auto library = load_strategy_library(source_path("strategies"));
  ASSERT_TRUE(library) << library.error().message;
  auto task = load_task(source_path("suites/algebra/row_sum-bf16"));
  ASSERT_TRUE(task) << task.error().message;

  SizeDispatchPlan plan;
  for (std::string const name : {"row_reduce_block_per_row", "row_reduce_warp_per_row"}) {
    auto const* strategy = library->find(name);
    ASSERT_NE(strategy, nullptr) << name;
    auto text = instantiate_strategy(*library, *strategy, *task, 90);
    ASSERT_TRUE(text) << text.error().message;
    auto space = TuningSpace::parse(*text);
    ASSERT_TRUE(space) << space.error().message;
    auto enumeration = space->enumerate(tuning_rules_for(*task));
    ASSERT_TRUE(enumeration && !enumeration->valid.empty()) << name;
    auto input = materialise(*space, enumeration->valid.front(), *text, *task);
    ASSERT_TRUE(input) << input.error().message;
    plan.variants.push_back({name, *input, {}});
  }
  plan.variants[0].sizes = {"wide"};
  plan.variants[1].sizes = {"medium", "large"};
  plan.scalars = {"rows", "cols"};
  plan.cases = {{"medium", {4096, 4096}, 1}, {"wide", {128, 262144}, 0}, {"large", {65536, 2048}, 1}};
  plan.flags = plan.variants[0].input.flags;
  auto dispatch = size_dispatch_candidate(*task, plan);
  ASSERT_TRUE(dispatch) << dispatch.error().message;

  auto report = (*evaluator)->evaluate_one(*task, *dispatch, TimingTier::screen);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->status, CandidateStatus::ok) << describe(*report);
  EXPECT_EQ(report->mode, CandidateMode::launcher);
  ASSERT_NE(find_size(*report, "odd"), nullptr);  // the verify-only case too, routed to its nearest case
  EXPECT_EQ(find_size(*report, "odd")->status, CandidateStatus::ok);
  for (auto const& c : plan.cases) {
    SizeResult const* size = find_size(*report, c.size);
    ASSERT_NE(size, nullptr) << c.size;
    ASSERT_TRUE(size->activity.has_value()) << c.size << ": no kernel activity";
    ASSERT_FALSE(size->activity->kernels.empty()) << c.size;
    std::string const planned = "kopt_variant_" + std::to_string(c.variant);
    for (auto const& kernel : size->activity->kernels)
      EXPECT_NE(kernel.name.find(planned), std::string::npos) << c.size << " ran " << kernel.name;
  }
}

}  // namespace
}  // namespace kopt::testing
