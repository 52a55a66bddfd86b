#include <gtest/gtest.h>

#include <cmath>

#include "fixtures.hpp"
#include "kopt/analysis.hpp"

namespace kopt {
namespace classify_test {

TEST(Classify, Float4CopyIsDramBound) {
  Classification const c = classify(fixtures::float4_copy(), WorkFacts{});
  EXPECT_EQ(c.bottleneck, BottleneckClass::memory_bound);
  ASSERT_TRUE(c.memory_level.has_value());
  EXPECT_EQ(*c.memory_level, MemoryLevel::dram);
  EXPECT_EQ(c.basis, ClassificationBasis::metrics);
  EXPECT_DOUBLE_EQ(c.evidence.at("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"), 86.0);
  EXPECT_NE(c.summary.find("86%"), std::string::npos) << c.summary;
  EXPECT_NE(c.summary.find("DRAM"), std::string::npos) << c.summary;
}

TEST(Classify, BankConflictKernelIsL1Bound) {
  Classification const c = classify(fixtures::bank_conflicts(), WorkFacts{});
  EXPECT_EQ(c.bottleneck, BottleneckClass::memory_bound);
  ASSERT_TRUE(c.memory_level.has_value());
  EXPECT_EQ(*c.memory_level, MemoryLevel::l1);
}

TEST(Classify, L2IsNamedWhenBusiest) {
  Metrics m = fixtures::sol(20.0, 85.0, 10.0);
  m["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"] = 30.0;
  m["lts__throughput.avg.pct_of_peak_sustained_elapsed"] = 85.0;
  m["l1tex__throughput.avg.pct_of_peak_sustained_active"] = 50.0;
  Classification const c = classify(m, WorkFacts{});
  ASSERT_TRUE(c.memory_level.has_value());
  EXPECT_EQ(*c.memory_level, MemoryLevel::l2);
}

TEST(Classify, MemoryLevelUnknownWithoutBreakdown) {
  Classification const c = classify(fixtures::sol(20.0, 85.0, 10.0), WorkFacts{});
  EXPECT_EQ(c.bottleneck, BottleneckClass::memory_bound);
  EXPECT_FALSE(c.memory_level.has_value());
}

TEST(Classify, FfmaLoopIsComputeBound) {
  Classification const c = classify(fixtures::ffma_loop(), WorkFacts{});
  EXPECT_EQ(c.bottleneck, BottleneckClass::compute_bound);
  EXPECT_FALSE(c.memory_level.has_value());
  EXPECT_NE(c.summary.find("89%"), std::string::npos) << c.summary;
}

TEST(Classify, OneBlockGridIsSmallGrid) {
  Classification const c = classify(fixtures::one_block(), WorkFacts{});
  EXPECT_EQ(c.bottleneck, BottleneckClass::small_grid);
  EXPECT_NEAR(c.evidence.at("derived.idle_sm_fraction"), 131.0 / 132.0, 1e-9);
  EXPECT_NE(c.summary.find("1 block for 132 SMs"), std::string::npos) << c.summary;
}

TEST(Classify, ShortTailIsSmallGridButLongRunIsLatency) {
  // One whole wave plus a 20% last wave: 40% of SM-time idle.
  EXPECT_EQ(classify(fixtures::sol(30.0, 40.0, 1.2), WorkFacts{}).bottleneck, BottleneckClass::small_grid);
  // One whole wave plus an 80% last wave: 10% idle, not a small grid.
  EXPECT_EQ(classify(fixtures::sol(30.0, 40.0, 1.8), WorkFacts{}).bottleneck, BottleneckClass::latency_bound);
}

TEST(Classify, GridFromWorkFactsWhenLaunchMetricsMissing) {
  Metrics const m{{"sm__throughput.avg.pct_of_peak_sustained_elapsed", 3.0},
                  {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 2.0}};
  WorkFacts work;
  work.grid_blocks = 16;
  work.sm_count = 132;
  EXPECT_EQ(classify(m, work).bottleneck, BottleneckClass::small_grid);
  work.grid_blocks = 4096;
  EXPECT_EQ(classify(m, work).bottleneck, BottleneckClass::latency_bound);
}

TEST(Classify, LowThroughputWithManyWavesIsLatencyBound) {
  Classification const c = classify(fixtures::latency_bound(), WorkFacts{});
  EXPECT_EQ(c.bottleneck, BottleneckClass::latency_bound);
  EXPECT_NE(c.summary.find("22%"), std::string::npos) << c.summary;
}

TEST(Classify, LeaningAndBalancedFollowTheTenPointRule) {
  EXPECT_EQ(classify(fixtures::sol(75.0, 62.0, 10.0), WorkFacts{}).bottleneck,
            BottleneckClass::compute_bound);
  EXPECT_EQ(classify(fixtures::sol(50.0, 70.0, 10.0), WorkFacts{}).bottleneck, BottleneckClass::memory_bound);
  EXPECT_EQ(classify(fixtures::sol(70.0, 65.0, 10.0), WorkFacts{}).bottleneck, BottleneckClass::balanced);
  // Exactly at the thresholds: 80 is the roof, 60 is not low, a difference of 10 leans.
  EXPECT_EQ(classify(fixtures::sol(80.0, 79.0, 10.0), WorkFacts{}).bottleneck,
            BottleneckClass::compute_bound);
  EXPECT_EQ(classify(fixtures::sol(60.0, 50.0, 10.0), WorkFacts{}).bottleneck,
            BottleneckClass::compute_bound);
  EXPECT_EQ(classify(fixtures::sol(60.0, 59.0, 10.0), WorkFacts{}).bottleneck, BottleneckClass::balanced);
}

TEST(Classify, ManyTinyLaunchesAreLaunchOverheadBound) {
  WorkFacts work;
  work.launches_per_call = 12;
  work.median_us = 40.0;
  work.kernel_us_per_call = 8.0;
  Classification const c = classify(fixtures::float4_copy(), work);
  EXPECT_EQ(c.bottleneck, BottleneckClass::launch_overhead_bound);
  EXPECT_NEAR(c.evidence.at("derived.launch_idle_fraction"), 0.8, 1e-9);
  EXPECT_NE(c.summary.find("80%"), std::string::npos) << c.summary;
}

TEST(Classify, OneBusyLaunchIsNotLaunchOverheadBound) {
  WorkFacts work;
  work.launches_per_call = 1;
  work.median_us = 124.0;
  work.kernel_us_per_call = 123.6;
  EXPECT_EQ(classify(fixtures::float4_copy(), work).bottleneck, BottleneckClass::memory_bound);
}

TEST(Classify, NonFiniteMetricsFallBackToRoofline) {
  Metrics const m{{"sm__throughput.avg.pct_of_peak_sustained_elapsed", std::nan("")},
                  {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 50.0}};
  Classification const c = classify(m, WorkFacts{});
  EXPECT_EQ(c.basis, ClassificationBasis::none);
  EXPECT_NE(c.summary.find("No speed-of-light metrics"), std::string::npos) << c.summary;
}

WorkFacts h200_work(double bytes, double flops, double median_us) {
  WorkFacts work;
  work.bytes = bytes;
  work.flops = flops;
  work.median_us = median_us;
  work.ceilings = DeviceCeilings{4.81e12, 66.9e12, 788e12};
  work.sm_count = 132;
  work.grid_blocks = 65536;
  return work;
}

TEST(ClassifyRoofline, CopyAtDramSpeedIsMemoryBound) {
  // 1 GiB moved (512 MiB read + 512 MiB written) in 250 us: 4.29 TB/s, 89% of 4.81 TB/s.
  Classification const c = classify_roofline(h200_work(1073741824.0, 0.0, 250.0));
  EXPECT_EQ(c.basis, ClassificationBasis::roofline);
  EXPECT_EQ(c.bottleneck, BottleneckClass::memory_bound);
  ASSERT_TRUE(c.memory_level.has_value());
  EXPECT_EQ(*c.memory_level, MemoryLevel::dram);
  EXPECT_NEAR(c.evidence.at("derived.memory_pct_of_roofline"), 89.3, 0.1);
}

TEST(ClassifyRoofline, TensorPeakCountsOnlyWhenAllowed) {
  // 4096^3 GEMM: 137 GFLOP in 2.2 ms is 62.5 TFLOP/s: 93% of FP32 peak, 8% of the tensor peak.
  WorkFacts work = h200_work(3.0 * 4096.0 * 4096.0 * 4.0, 2.0 * 4096.0 * 4096.0 * 4096.0, 2200.0);
  EXPECT_EQ(classify_roofline(work).bottleneck, BottleneckClass::compute_bound);
  work.tensor_cores_allowed = true;
  EXPECT_EQ(classify_roofline(work).bottleneck, BottleneckClass::latency_bound);
}

TEST(ClassifyRoofline, SmallGridFromWorkFacts) {
  WorkFacts work = h200_work(1e6, 0.0, 20.0);
  work.grid_blocks = 4;
  EXPECT_EQ(classify_roofline(work).bottleneck, BottleneckClass::small_grid);
}

TEST(ClassifyRoofline, NotEnoughFactsIsBasisNone) {
  WorkFacts work;
  work.bytes = 1e9;  // no time, no ceilings
  Classification const c = classify_roofline(work);
  EXPECT_EQ(c.basis, ClassificationBasis::none);
  EXPECT_FALSE(c.summary.empty());
}

TEST(ClassifyRoofline, LaunchOverheadWithoutKernelDurations) {
  WorkFacts work = h200_work(1e6, 0.0, 24.0);
  work.launches_per_call = 8;  // 3 us per launch
  EXPECT_EQ(classify_roofline(work).bottleneck, BottleneckClass::launch_overhead_bound);
  work.launches_per_call = 2;  // 12 us per launch
  EXPECT_NE(classify_roofline(work).bottleneck, BottleneckClass::launch_overhead_bound);
}

TEST(AnalysisNames, RoundTrip) {
  for (BottleneckClass c :
       {BottleneckClass::memory_bound, BottleneckClass::compute_bound, BottleneckClass::latency_bound,
        BottleneckClass::small_grid, BottleneckClass::launch_overhead_bound, BottleneckClass::balanced}) {
    std::optional<BottleneckClass> const back = bottleneck_class_from_string(to_string(c));
    ASSERT_TRUE(back.has_value()) << to_string(c);
    EXPECT_EQ(*back, c);
  }
  EXPECT_FALSE(bottleneck_class_from_string("fast").has_value());
  EXPECT_EQ(to_string(Severity::high), "high");
  EXPECT_EQ(to_string(MemoryLevel::l2), "l2");
}

}  // namespace classify_test
}  // namespace kopt
