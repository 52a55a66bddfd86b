// The pure part of kernel activity: busy time with overlaps merged, span, per-name totals, the summary
// and the protocol's activity block.
#include "kopt/worker/kernel_activity_summary.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace kopt::worker {
namespace kernel_activity_summary_test {

KernelInterval k(char const* name, std::uint64_t start_us, std::uint64_t end_us) {
  return KernelInterval{name, start_us * 1000, end_us * 1000};
}

TEST(KernelActivitySummary, BusyTimeOfDisjointKernelsIsTheirSum) {
  EXPECT_DOUBLE_EQ(busy_union_us({k("a", 0, 2), k("b", 5, 8), k("c", 10, 11)}), 6.0);
}

TEST(KernelActivitySummary, OverlappingNestedAndTouchingKernelsAreMerged) {
  // [0,4) and [2,6) overlap -> [0,6); [1,3) lies inside; [6,7) touches the end -> [0,7); [10,12) apart.
  std::vector<KernelInterval> const intervals{k("b", 2, 6), k("a", 0, 4), k("c", 1, 3), k("d", 6, 7),
                                              k("e", 10, 12)};
  EXPECT_DOUBLE_EQ(busy_union_us(intervals), 9.0);
  EXPECT_DOUBLE_EQ(span_us(intervals), 12.0);
}

TEST(KernelActivitySummary, EmptyAndReversedIntervalsCountAsNothing) {
  EXPECT_DOUBLE_EQ(busy_union_us({}), 0.0);
  EXPECT_DOUBLE_EQ(span_us({}), 0.0);
  EXPECT_DOUBLE_EQ(busy_union_us({k("r", 5, 3)}), 0.0);
  EXPECT_DOUBLE_EQ(busy_union_us({KernelInterval{"ns", 1000, 1500}}), 0.5);
}

TEST(KernelActivitySummary, KernelsAggregateByNameLongestFirstAndKeepTheTop) {
  std::vector<KernelInterval> const intervals{k("small", 0, 1),   k("big", 1, 11),  k("mid", 11, 14),
                                              k("small", 14, 15), k("mid", 15, 18), k("tiny", 18, 18)};
  auto const all = kernels_by_time(intervals);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].name, "big");
  EXPECT_EQ(all[0].count, 1);
  EXPECT_DOUBLE_EQ(all[0].total_us, 10.0);
  EXPECT_EQ(all[1].name, "mid");
  EXPECT_EQ(all[1].count, 2);
  EXPECT_DOUBLE_EQ(all[1].total_us, 6.0);
  EXPECT_EQ(all[2].name, "small");
  EXPECT_EQ(all[2].count, 2);
  EXPECT_EQ(all[3].name, "tiny");
  auto const top = kernels_by_time(intervals, 2);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[1].name, "mid");
}

TEST(KernelActivitySummary, SummaryCountsEveryLaunchAndCarriesTheCallTime) {
  std::vector<KernelInterval> intervals;
  for (std::uint64_t i = 0; i < 8; ++i)
    intervals.push_back(k(i % 2 == 0 ? "even" : "odd", 10 * i, 10 * i + 2));
  KernelActivity const a = summarize_activity(intervals, 1, 2, 100.0, 1);
  EXPECT_EQ(a.launches, 8);
  EXPECT_DOUBLE_EQ(*a.kernel_us, 16.0);
  EXPECT_DOUBLE_EQ(*a.span_us, 72.0);
  EXPECT_DOUBLE_EQ(*a.call_us, 100.0);
  EXPECT_EQ(a.memcpys, 1);
  EXPECT_EQ(a.memsets, 2);
  ASSERT_EQ(a.kernels.size(), 1u);  // the top one only; launches still counts all eight
  EXPECT_EQ(a.kernels[0].name, "even");
  EXPECT_TRUE(a.from_cupti);
}

TEST(KernelActivitySummary, ProtocolBlockRoundTrips) {
  KernelActivity a = summarize_activity({k("x", 0, 3), k("y", 1, 5)}, 0, 1, std::nullopt);
  nlohmann::json const j = to_json(a);
  EXPECT_TRUE(j["call_us"].is_null());
  EXPECT_EQ(j["source"], "cupti");
  KernelActivity const back = kernel_activity_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.launches, 2);
  EXPECT_DOUBLE_EQ(*back.kernel_us, 5.0);
  EXPECT_FALSE(back.call_us.has_value());
  EXPECT_EQ(back.memsets, 1);
  ASSERT_EQ(back.kernels.size(), 2u);
  EXPECT_EQ(back.kernels[0].name, "y");
  EXPECT_EQ(to_json(back), j);

  KernelActivity kernel_mode;
  kernel_mode.launches = 1;
  kernel_mode.from_cupti = false;
  KernelActivity const again = kernel_activity_from_json(to_json(kernel_mode));
  EXPECT_FALSE(again.from_cupti);
  EXPECT_FALSE(again.kernel_us.has_value());
  EXPECT_THROW(kernel_activity_from_json(nlohmann::json{{"kernels", 3}}), nlohmann::json::exception);
}

TEST(KernelActivitySummary, KernelNamesAreDemangledWhenMangled) {
  EXPECT_EQ(readable_kernel_name("_Z10add_kernelPfPKfi"), "add_kernel(float*, float const*, int)");
  EXPECT_EQ(readable_kernel_name("vector_add"), "vector_add");
  EXPECT_EQ(readable_kernel_name(nullptr), "?");
}

}  // namespace kernel_activity_summary_test
}  // namespace kopt::worker
