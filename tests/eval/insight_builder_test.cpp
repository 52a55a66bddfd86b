// build_roofline_insights: the cheap analysis of a hand-made report of examples/vector_add.
#include <gtest/gtest.h>

#include "kopt/eval.hpp"
#include "kopt/insight.hpp"

namespace kopt {
namespace insight_builder_test {

DeviceCeilings h200() {
  return DeviceCeilings{4.8e12, 6.7e13, 9.89e14};
}

TaskSpec vector_add() {
  auto task = load_task(std::filesystem::path(KOPT_SOURCE_DIR) / "examples" / "vector_add");
  EXPECT_TRUE(task) << task.error().message;
  return task ? *task : TaskSpec{};
}

KernelTiming timing(double median_us) {
  KernelTiming timing;
  timing.us.count = 10;
  timing.us.median = median_us;
  return timing;
}

// odd (verify only), medium (2^20) and large (2^26) as the evaluator reports them.
CandidateReport report(double medium_us, double large_us) {
  CandidateReport r;
  r.name = "cand.cu";
  r.mode = CandidateMode::kernel;
  r.resources = ResourceUsage{32, 0, 0, 0, 0};
  SizeResult odd;
  odd.size = "odd";
  odd.verify_only = true;
  SizeResult medium;
  medium.size = "medium";
  medium.candidate = timing(medium_us);
  SizeResult large;
  large.size = "large";
  large.candidate = timing(large_us);
  large.bytes = 12.0 * 67108864.0;
  large.flops = 67108864.0;
  r.sizes = {odd, medium, large};
  return r;
}

Finding const* find_tool(CandidateInsight const& insight, std::string_view tool) {
  for (Finding const& f : insight.findings)
    if (f.tool == tool) return &f;
  return nullptr;
}

TEST(RooflineInsights, OnePerTimedOkSizeMemoryBoundAtTheRoof) {
  // 805 MB in 180 µs is 4.47 TB/s: 93% of 4.8 TB/s.
  std::vector<CandidateInsight> const insights =
      build_roofline_insights(vector_add(), report(40.0, 180.0), h200());
  ASSERT_EQ(insights.size(), 2u);  // odd is verify-only
  EXPECT_EQ(insights[0].size, "medium");
  CandidateInsight const& large = insights[1];
  EXPECT_EQ(large.size, "large");
  EXPECT_EQ(large.source, "roofline");
  EXPECT_EQ(large.classification.basis, ClassificationBasis::roofline);
  EXPECT_EQ(large.classification.bottleneck, BottleneckClass::memory_bound);
  EXPECT_EQ(large.classification.memory_level, MemoryLevel::dram);
  EXPECT_NEAR(large.classification.evidence.at("derived.memory_pct_of_roofline"), 93.2, 0.1);
  ASSERT_TRUE(large.pct_of_sol);
  EXPECT_NEAR(*large.pct_of_sol, 93.2, 0.1);
  EXPECT_EQ(find_tool(large, "register_spills"), nullptr);  // 0 spill bytes, no stack
  // medium: the bytes come from the task's work model (12 * 2^20 in 40 µs is 6.6% of DRAM).
  EXPECT_NEAR(insights[0].classification.evidence.at("derived.memory_pct_of_roofline"), 6.55, 0.01);
  EXPECT_NE(insights[0].classification.bottleneck, BottleneckClass::memory_bound);
}

TEST(RooflineInsights, SpillingKernelGetsRegisterSpills) {
  CandidateReport spilling = report(40.0, 180.0);
  spilling.resources = ResourceUsage{255, 512, 768, 0, 1024};
  std::vector<CandidateInsight> const insights = build_roofline_insights(vector_add(), spilling, h200());
  ASSERT_EQ(insights.size(), 2u);
  for (CandidateInsight const& insight : insights) {
    Finding const* spills = find_tool(insight, "register_spills");
    ASSERT_NE(spills, nullptr) << insight.size;
    EXPECT_EQ(spills->severity, Severity::high);  // 1280 B >= 256 B
    EXPECT_EQ(spills->evidence.at("static.spill_store_bytes"), 512.0);
    EXPECT_EQ(insight.findings.front().tool, "register_spills");  // highest severity first
  }
}

TEST(RooflineInsights, FailuresAndUntimedSizesGetNone) {
  CandidateReport failed = report(40.0, 180.0);
  failed.status = CandidateStatus::wrong_output;
  EXPECT_TRUE(build_roofline_insights(vector_add(), failed, h200()).empty());
  CandidateReport partly = report(40.0, 180.0);
  partly.sizes[2].status = CandidateStatus::timeout;
  partly.sizes[1].candidate.reset();
  EXPECT_TRUE(build_roofline_insights(vector_add(), partly, h200()).empty());
}

TEST(RooflineInsights, WithoutCeilingsNothingIsClassified) {
  std::vector<CandidateInsight> const insights =
      build_roofline_insights(vector_add(), report(40.0, 180.0), DeviceCeilings{});
  ASSERT_EQ(insights.size(), 2u);
  EXPECT_EQ(insights[1].classification.basis, ClassificationBasis::none);
  EXPECT_FALSE(insights[1].pct_of_sol);
}

TEST(RooflineInsights, KernelActivityGivesLaunches) {
  CandidateReport launcher = report(40.0, 180.0);
  launcher.mode = CandidateMode::launcher;
  KernelActivity activity;
  activity.launches = 12;
  activity.kernel_us = 20.0;
  launcher.sizes[1].activity = activity;  // 12 launches, kernels busy 20 of 40 µs
  std::vector<CandidateInsight> const insights = build_roofline_insights(vector_add(), launcher, h200());
  ASSERT_EQ(insights.size(), 2u);
  EXPECT_EQ(insights[0].classification.bottleneck, BottleneckClass::launch_overhead_bound);
  EXPECT_NE(find_tool(insights[0], "launch_overhead"), nullptr);
  EXPECT_NE(insights[1].classification.bottleneck,
            BottleneckClass::launch_overhead_bound);  // launches unknown
}

}  // namespace insight_builder_test
}  // namespace kopt
