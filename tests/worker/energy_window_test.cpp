// The arithmetic of `kopt energy`'s windows: how many calls fill one, and the summary over trials.
#include "worker/gpu/energy_window.hpp"

#include <gtest/gtest.h>

namespace kopt::worker {
namespace energy_window_test {

TEST(PlanWindow, FillsTheWindowWithMarginInGraphsOfBoundedSize) {
  // 100 calls in 10 ms: 100 µs per call; 2 s x 1.05 -> 21000 calls, in graphs of 4096.
  WindowPlan const plan = plan_window(0.010, 100, 2.0, 4096);
  EXPECT_EQ(plan.calls_per_graph, 4096);
  EXPECT_EQ(plan.replays, 6);  // ceil(21000 / 4096)
  EXPECT_GE(plan.calls(), 21000);
  EXPECT_LT(plan.calls(), 21000 + 4096);
}

TEST(PlanWindow, OneGraphWhenTheWindowNeedsFewCalls) {
  // 1.6 ms per call: 2 s x 1.05 / 1.6 ms = 1312.5 -> 1313 calls, one graph.
  WindowPlan const plan = plan_window(0.016, 10, 2.0, 4096);
  EXPECT_EQ(plan.calls_per_graph, 1313);
  EXPECT_EQ(plan.replays, 1);
}

TEST(PlanWindow, ACallLongerThanTheWindowIsOneCall) {
  WindowPlan const plan = plan_window(3.0, 1, 2.0, 4096);
  EXPECT_EQ(plan.calls(), 1);
}

TEST(PlanWindow, NoMarginMeansExactlyEnoughCalls) {
  WindowPlan const plan = plan_window(1.0, 1000, 2.0, 1000000, 1.0);  // 1 ms per call
  EXPECT_EQ(plan.calls(), 2000);
  EXPECT_EQ(plan.replays, 1);
}

TEST(PlanWindow, DegenerateProbesPlanOneCall) {
  EXPECT_EQ(plan_window(0.0, 100, 2.0, 4096).calls(), 1);
  EXPECT_EQ(plan_window(0.01, 0, 2.0, 4096).calls(), 1);
  EXPECT_EQ(plan_window(0.01, 10, 0.0, 4096).calls(), 1);
  EXPECT_EQ(plan_window(0.01, 10, 2.0, 0).calls_per_graph, 1) << "graphs hold at least one call";
}

TEST(PlanWindow, AbsurdlyShortCallsStayFinite) {
  WindowPlan const plan = plan_window(1e-12, 1, 2.0, 4096);
  EXPECT_EQ(plan.calls_per_graph, 4096);
  EXPECT_GT(plan.replays, 0);
}

TEST(ReplaysForWindow, EnoughReplaysWithMarginAndAtLeastOne) {
  EXPECT_EQ(replays_for_window(0.125, 2.0), 17);  // 2.1 s of 125 ms replays: 16.8
  EXPECT_EQ(replays_for_window(0.125, 2.0, 1.0), 16);
  EXPECT_EQ(replays_for_window(5.0, 2.0), 1);
  EXPECT_EQ(replays_for_window(0.0, 2.0), 1);
  EXPECT_EQ(replays_for_window(0.1, 0.0), 1);
}

TEST(EnergyDelta, MillijoulesToJoulesAndBackwardsCountersRejected) {
  ASSERT_TRUE(energy_delta_joules(1000, 3500).has_value());
  EXPECT_DOUBLE_EQ(*energy_delta_joules(1000, 3500), 2.5);
  EXPECT_DOUBLE_EQ(*energy_delta_joules(7, 7), 0.0);
  EXPECT_FALSE(energy_delta_joules(3500, 1000).has_value());
}

TEST(EnergyWindow, PerCallAndAveragePower) {
  EnergyWindow const w{700.0, 2.0, 1000, 96.0};
  EXPECT_DOUBLE_EQ(joules_per_call(w), 0.7);
  EXPECT_DOUBLE_EQ(average_watts(w), 350.0);
  EXPECT_DOUBLE_EQ(joules_per_call(EnergyWindow{1.0, 1.0, 0, 0.0}), 0.0);
  EXPECT_DOUBLE_EQ(average_watts(EnergyWindow{1.0, 0.0, 1, 0.0}), 0.0);
}

TEST(SummarizeWindows, MedianAndRangeOverTrials) {
  std::vector<EnergyWindow> const windows{
      {800.0, 2.0, 1000, 95.0},  // 0.8 J/call, 400 W
      {760.0, 2.0, 1000, 97.0},  // 0.76 J/call, 380 W
      {840.0, 2.1, 1000, 99.0},  // 0.84 J/call, 400 W
  };
  EnergySummary const s = summarize_windows(windows);
  EXPECT_DOUBLE_EQ(s.joules_per_call.min, 0.76);
  EXPECT_DOUBLE_EQ(s.joules_per_call.median, 0.8);
  EXPECT_DOUBLE_EQ(s.joules_per_call.max, 0.84);
  EXPECT_DOUBLE_EQ(s.avg_watts, 400.0);
  EXPECT_DOUBLE_EQ(s.idle_watts, 97.0);
  EXPECT_DOUBLE_EQ(s.seconds, 2.0);
}

TEST(SummarizeWindows, EvenCountInterpolatesAndEmptyIsZero) {
  EnergySummary const s = summarize_windows({{1.0, 1.0, 1, 0.0}, {3.0, 1.0, 1, 0.0}});
  EXPECT_DOUBLE_EQ(s.joules_per_call.median, 2.0);
  EnergySummary const none = summarize_windows({});
  EXPECT_DOUBLE_EQ(none.joules_per_call.median, 0.0);
  EXPECT_DOUBLE_EQ(none.avg_watts, 0.0);
  Spread const spread = spread_of({5.0, 1.0, 3.0});
  EXPECT_DOUBLE_EQ(spread.min, 1.0);
  EXPECT_DOUBLE_EQ(spread.median, 3.0);
  EXPECT_DOUBLE_EQ(spread.max, 5.0);
}

}  // namespace energy_window_test
}  // namespace kopt::worker
