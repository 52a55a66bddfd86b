// Dispatch by size on the GPU (docs/strategies.md, "Dispatch by size"): the library's two row-sum kernels
// as one launcher for suites/algebra/row_sum-bf16 verify on every size case, and each timed case runs the
// kernel planned for it (CUPTI's kernel names carry the variant's namespace). Skips without a GPU.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"
#include "kopt/optimize.hpp"
#include "kopt/propose.hpp"
#include "kopt/task.hpp"
#include "propose/propose_fixtures.hpp"

namespace kopt::testing {
namespace size_dispatch_gpu_test {

TEST(SizeDispatchOnGpu, TheLibrarysRowSumKernelsVerifyAsOneLauncherAndEachCaseRunsItsOwn) {
  auto evaluator = KoptCandidateEvaluator::create(gpu_test_options());
  if (!evaluator && evaluator.error().code == ErrorCode::no_gpu)
    GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator) << evaluator.error().message;
  auto library = load_strategy_library(source_path("strategies"));
  ASSERT_TRUE(library) << library.error().message;
  auto task = load_task(source_path("suites/algebra/row_sum-bf16"));
  ASSERT_TRUE(task) << task.error().message;

  auto plan = test::row_sum_dispatch_plan(*library, *task, false);
  ASSERT_TRUE(plan) << plan.error().message;
  auto dispatch = size_dispatch_candidate(*task, *plan);
  ASSERT_TRUE(dispatch) << dispatch.error().message;

  auto report = (*evaluator)->evaluate_one(*task, *dispatch, TimingTier::screen);
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->status, CandidateStatus::ok) << describe(*report);
  EXPECT_EQ(report->mode, CandidateMode::launcher);
  ASSERT_NE(find_size(*report, "odd"), nullptr);  // the verify-only case too, routed to its nearest case
  EXPECT_EQ(find_size(*report, "odd")->status, CandidateStatus::ok);
  for (auto const& c : plan->cases) {
    SizeResult const* size = find_size(*report, c.size);
    ASSERT_NE(size, nullptr) << c.size;
    ASSERT_TRUE(size->activity.has_value()) << c.size << ": no kernel activity";
    ASSERT_FALSE(size->activity->kernels.empty()) << c.size;
    std::string const planned = "kopt_variant_" + std::to_string(c.variant);
    for (auto const& kernel : size->activity->kernels)
      EXPECT_NE(kernel.name.find(planned), std::string::npos) << c.size << " ran " << kernel.name;
  }
}

}  // namespace size_dispatch_gpu_test
}  // namespace kopt::testing
