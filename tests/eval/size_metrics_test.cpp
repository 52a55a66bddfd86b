// comparable_median, geomean and apply_size_metrics: speedups, rates, % of speed of light, and the
// implausibly-fast verdict.
#include "eval/size_metrics.hpp"

#include <gtest/gtest.h>

#include "eval_test_support.hpp"

namespace kopt {
namespace size_metrics_test {

using eval_test::size_named;
using eval_test::test_device;
using eval_test::timing;
using eval_test::vector_add_task;

constexpr double kGraphBelowUs = 10.0;

TEST(ComparableMedian, UsesGraphMediansWhenBothHaveThemAndOneIsUnderTheThreshold) {
  KernelTiming const cand = timing(4.0, 2.5);
  KernelTiming const ref = timing(20.0, 19.0);
  EXPECT_DOUBLE_EQ(comparable_median(cand, ref, kGraphBelowUs), 2.5);
  EXPECT_DOUBLE_EQ(comparable_median(ref, cand, kGraphBelowUs), 19.0);
}

TEST(ComparableMedian, UsesEventMediansWhenOnlyOneSideHasAGraphMedian) {
  KernelTiming const cand = timing(4.0, 2.5);
  KernelTiming const ref = timing(8.0);
  EXPECT_DOUBLE_EQ(comparable_median(cand, ref, kGraphBelowUs), 4.0);
  EXPECT_DOUBLE_EQ(comparable_median(ref, cand, kGraphBelowUs), 8.0);
}

TEST(ComparableMedian, UsesEventMediansWhenBothAreAboveTheThreshold) {
  KernelTiming const cand = timing(12.0, 11.0);
  KernelTiming const ref = timing(30.0, 29.0);
  EXPECT_DOUBLE_EQ(comparable_median(cand, ref, kGraphBelowUs), 12.0);
  EXPECT_DOUBLE_EQ(comparable_median(ref, cand, kGraphBelowUs), 30.0);
}

TEST(Geomean, OfSpeedups) {
  EXPECT_DOUBLE_EQ(geomean({}), 0.0);
  EXPECT_DOUBLE_EQ(geomean({1.5}), 1.5);
  EXPECT_NEAR(geomean({2.0, 8.0}), 4.0, 1e-12);
  EXPECT_NEAR(geomean({0.5, 2.0, 1.0}), 1.0, 1e-12);
}

TEST(ApplySizeMetrics, FillsWorkRatesSpeedupsAndSpeedOfLight) {
  TaskSpec const task = vector_add_task();
  SizeCase const& large = size_named(task, "large");
  double const bytes = 12.0 * 67108864.0;
  double const sol_us = bytes / 4.0e12 * 1e6;  // ~201 us: memory bound
  SizeResult r;
  r.size = "large";
  r.reference = timing(500.0);
  r.baseline = timing(300.0);
  r.candidate = timing(250.0);
  apply_size_metrics(task, large, test_device(), kGraphBelowUs, r);
  ASSERT_TRUE(r.bytes && r.flops);
  EXPECT_DOUBLE_EQ(*r.bytes, bytes);
  EXPECT_DOUBLE_EQ(*r.flops, 67108864.0);
  ASSERT_TRUE(r.speedup && r.vs_baseline);
  EXPECT_DOUBLE_EQ(*r.speedup, 2.0);
  EXPECT_DOUBLE_EQ(*r.vs_baseline, 1.2);
  ASSERT_TRUE(r.achieved_gbps && r.achieved_gflops);
  EXPECT_NEAR(*r.achieved_gbps, bytes / 250e-6 / 1e9, 1e-6);
  EXPECT_NEAR(*r.achieved_gflops, 67108864.0 / 250e-6 / 1e9, 1e-6);
  EXPECT_NEAR(r.sol_us, sol_us, 1e-9);
  ASSERT_TRUE(r.pct_of_sol);
  EXPECT_NEAR(*r.pct_of_sol, 100.0 * sol_us / 250.0, 1e-9);
  EXPECT_EQ(r.status, CandidateStatus::ok);
}

TEST(ApplySizeMetrics, SpeedupUsesGraphMediansForShortKernels) {
  TaskSpec const task = vector_add_task();
  SizeResult r;
  r.reference = timing(9.0, 6.0);
  r.candidate = timing(6.0, 3.0);
  apply_size_metrics(task, size_named(task, "medium"), test_device(), kGraphBelowUs, r);
  ASSERT_TRUE(r.speedup);
  EXPECT_DOUBLE_EQ(*r.speedup, 2.0);  // 6 / 3 from graph replay, not 9 / 6
  EXPECT_FALSE(r.vs_baseline);
}

TEST(ApplySizeMetrics, WithoutACandidateTimingOnlyTheWorkModelIsFilled) {
  TaskSpec const task = vector_add_task();
  SizeResult r;
  r.reference = timing(500.0);
  apply_size_metrics(task, size_named(task, "odd"), test_device(), kGraphBelowUs, r);
  ASSERT_TRUE(r.bytes);
  EXPECT_DOUBLE_EQ(*r.bytes, 12.0 * 1000003.0);
  EXPECT_FALSE(r.speedup);
  EXPECT_FALSE(r.achieved_gbps);
  EXPECT_FALSE(r.pct_of_sol);
}

TEST(ApplySizeMetrics, BeatingTheMemoryBoundOnDataTwiceTheL2IsImplausiblyFast) {
  TaskSpec const task = vector_add_task();
  SizeResult r;
  r.reference = timing(500.0);
  r.candidate = timing(100.0);  // bound ~201 us, 100 * 1.15 < 201
  apply_size_metrics(task, size_named(task, "large"), test_device(), kGraphBelowUs, r);
  EXPECT_EQ(r.status, CandidateStatus::implausibly_fast);
  EXPECT_NE(r.message.find("size 'large'"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("speed-of-light"), std::string::npos) << r.message;
}

TEST(ApplySizeMetrics, WithinTheSlackIsNotImplausiblyFast) {
  TaskSpec const task = vector_add_task();
  SizeResult r;
  r.reference = timing(500.0);
  r.candidate = timing(190.0);  // below the ~201 us bound, but 190 * 1.15 > 201
  apply_size_metrics(task, size_named(task, "large"), test_device(), kGraphBelowUs, r);
  EXPECT_EQ(r.status, CandidateStatus::ok);
  EXPECT_TRUE(r.message.empty());
  ASSERT_TRUE(r.pct_of_sol);
  EXPECT_GT(*r.pct_of_sol, 100.0);
}

TEST(ApplySizeMetrics, DataSmallerThanTwiceTheL2IsNotCheckedAgainstMemory) {
  TaskSpec const task = vector_add_task();
  SizeResult r;
  r.reference = timing(10.0);
  r.candidate = timing(1.0);  // memory bound ~3.1 us, but 12 MiB can sit in the 50 MiB L2
  apply_size_metrics(task, size_named(task, "medium"), test_device(), kGraphBelowUs, r);
  EXPECT_EQ(r.status, CandidateStatus::ok);
  ASSERT_TRUE(r.pct_of_sol);
  EXPECT_NEAR(*r.pct_of_sol, 100.0 * (12.0 * 1048576.0 / 4.0e12 * 1e6) / 1.0, 1e-9);
}

TEST(ApplySizeMetrics, AFailedSizeKeepsItsStatus) {
  TaskSpec const task = vector_add_task();
  SizeResult r;
  r.status = CandidateStatus::wrong_output;
  r.message = "mismatch";
  r.reference = timing(500.0);
  r.candidate = timing(100.0);
  apply_size_metrics(task, size_named(task, "large"), test_device(), kGraphBelowUs, r);
  EXPECT_EQ(r.status, CandidateStatus::wrong_output);
  EXPECT_EQ(r.message, "mismatch");
}

}  // namespace size_metrics_test
}  // namespace kopt
