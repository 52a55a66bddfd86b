// record_of: what the store keeps of an evaluation, including each size's roofline.
#include <gtest/gtest.h>

#include "optimize/run_log.hpp"

namespace kopt {
namespace {

TEST(RecordOf, KeepsEachSizesTimingSpeedupAndRoofline) {
  CandidateReport report;
  report.status = CandidateStatus::ok;
  report.geomean_speedup = 2.0;
  SizeResult size;
  size.size = "large";
  size.candidate = KernelTiming{};
  size.candidate->us.median = 50.0;
  size.reference = KernelTiming{};
  size.reference->us.median = 100.0;
  size.speedup = 2.0;
  size.sol_us = 22.0;
  size.pct_of_sol = 44.0;
  size.achieved_gbps = 2100.0;
  report.sizes.push_back(size);
  SizeResult verify_only;
  verify_only.size = "odd";
  verify_only.verify_only = true;
  report.sizes.push_back(verify_only);

  auto const recorded = optimize_detail::record_of(report, TimingTier::screen);
  ASSERT_EQ(recorded.sizes.size(), 2u);
  auto const& large = recorded.sizes[0];
  EXPECT_DOUBLE_EQ(large.at("median_us").get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(large.at("speedup").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(large.at("sol_us").get<double>(), 22.0);
  EXPECT_DOUBLE_EQ(large.at("pct_of_sol").get<double>(), 44.0);
  EXPECT_DOUBLE_EQ(large.at("achieved_gbps").get<double>(), 2100.0);
  EXPECT_FALSE(large.contains("achieved_gflops")) << "unknown stays absent";
  EXPECT_FALSE(recorded.sizes[1].contains("pct_of_sol"));
}

}  // namespace
}  // namespace kopt
