#include <gtest/gtest.h>

#include <vector>

#include "kopt/measure.hpp"

namespace kopt {
namespace timing_policy_test {

TEST(TimingTier, RoundTripsNames) {
  for (auto tier : {TimingTier::screen, TimingTier::confirm}) {
    auto const parsed = timing_tier_from_string(to_string(tier));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, tier);
  }
  EXPECT_EQ(to_string(TimingTier::screen), "screen");
  EXPECT_FALSE(timing_tier_from_string("Confirm").has_value());
  EXPECT_FALSE(timing_tier_from_string("").has_value());
}

TEST(TimingPolicy, ConfirmIsTheFullProtocol) {
  auto const policy = policy_for(TimingTier::confirm);
  EXPECT_DOUBLE_EQ(policy.warmup_ms, 25.0);
  EXPECT_EQ(policy.min_samples, 10);
  EXPECT_DOUBLE_EQ(policy.min_total_ms, 100.0);
  EXPECT_TRUE(policy.flush_l2);
  EXPECT_TRUE(policy.interleave);
  EXPECT_DOUBLE_EQ(policy.graph_below_us, 10.0);
  EXPECT_DOUBLE_EQ(policy.max_wall_ms, 5000.0);
  EXPECT_DOUBLE_EQ(policy.race_ratio, 0.0) << "the confirm tier never stops a candidate early";
}

TEST(TimingPolicy, ScreenIsCheap) {
  auto const policy = policy_for(TimingTier::screen);
  EXPECT_DOUBLE_EQ(policy.warmup_ms, 0.5);
  EXPECT_EQ(policy.min_warmup_calls, 2);
  EXPECT_EQ(policy.min_samples, 5);
  EXPECT_DOUBLE_EQ(policy.race_ratio, 1.5);
  EXPECT_DOUBLE_EQ(policy.min_total_ms, 5.0);
  EXPECT_DOUBLE_EQ(policy.max_wall_ms, 500.0);
  EXPECT_TRUE(policy.flush_l2);
  EXPECT_FALSE(policy.interleave);
  EXPECT_DOUBLE_EQ(policy.graph_below_us, 0.0);
  EXPECT_DOUBLE_EQ(policy.median_precision, 0.01);
  EXPECT_DOUBLE_EQ(policy_for(TimingTier::confirm).median_precision, 0.0) << "confirm keeps its minimums";
}

TEST(SamplingDone, NeedsBothSampleCountAndMeasuredTime) {
  auto const policy = policy_for(TimingTier::confirm);
  EXPECT_FALSE(sampling_done(policy, 9, 1000.0, 10.0));
  EXPECT_FALSE(sampling_done(policy, 10, 99.9, 10.0));
  EXPECT_TRUE(sampling_done(policy, 10, 100.0, 10.0));
  EXPECT_FALSE(sampling_done(policy, 500, 50.0, 100.0));
}

TEST(SamplingDone, ScreenStopsLongKernelsAfterFiveSamplesAndTimesShortOnesForFiveMilliseconds) {
  auto const policy = policy_for(TimingTier::screen);
  EXPECT_FALSE(sampling_done(policy, 4, 20.0, 25.0)) << "4 samples of a 5 ms kernel";
  EXPECT_TRUE(sampling_done(policy, 5, 25.0, 30.0)) << "5 samples of a 5 ms kernel";
  EXPECT_FALSE(sampling_done(policy, 5, 0.5, 2.0)) << "5 samples of a 100 us kernel: only 0.5 ms measured";
  EXPECT_TRUE(sampling_done(policy, 50, 5.0, 12.0)) << "50 samples of a 100 us kernel";
}

TEST(PreciseEnough, StopsOnceTheMediansConfidenceIntervalIsWithinOnePercent) {
  auto const screen = policy_for(TimingTier::screen);
  // Ten samples of a 77 us kernel spread over 76.6..77.5 us: IQR 0.2 us, half-width 1.57 * 0.2 / sqrt(10)
  // = 0.1 us, 0.13 % of the median.
  std::vector<double> steady = {76.9, 77.0, 77.1, 76.8, 77.2, 77.0, 76.6, 77.5, 77.1, 76.9};
  EXPECT_TRUE(precise_enough(screen, steady));
  steady.pop_back();
  EXPECT_FALSE(precise_enough(screen, steady)) << "fewer than precision_min_samples";
  // A noisy 5 us kernel: an IQR of 0.5 us around a 5 us median needs (1.57 * 0.1 / 0.01)^2 = 246 samples;
  // 100 give a half-width of 1.57 %.
  std::vector<double> noisy;
  noisy.reserve(100);
  for (int i = 0; i < 100; ++i) noisy.push_back(4.5 + (i % 4) * 0.333);
  EXPECT_FALSE(precise_enough(screen, noisy));
  EXPECT_FALSE(precise_enough(policy_for(TimingTier::confirm), std::vector<double>(50, 10.0)))
      << "confirm never stops on precision";
  EXPECT_TRUE(precise_enough(screen, std::vector<double>(10, 10.0))) << "identical samples";
  EXPECT_FALSE(precise_enough(screen, std::vector<double>(10, 0.0))) << "a zero median proves nothing";
}

TEST(ClearlySlower, StopsOnlyCandidatesWhoseFastestSampleIsFarBehindTheBest) {
  auto const screen = policy_for(TimingTier::screen);
  std::vector<double> const slow = {160.0, 170.0};
  EXPECT_TRUE(clearly_slower(screen, slow, 100.0)) << "both samples > 1.5 x 100";
  EXPECT_FALSE(clearly_slower(screen, std::vector<double>{160.0, 149.0}, 100.0)) << "one sample within 1.5x";
  EXPECT_FALSE(clearly_slower(screen, std::vector<double>{400.0}, 100.0)) << "one sample is not enough";
  EXPECT_FALSE(clearly_slower(screen, slow, 0.0)) << "no rival screened yet";
  EXPECT_FALSE(clearly_slower(screen, slow, 120.0)) << "160 < 1.5 x 120";
  EXPECT_FALSE(clearly_slower(policy_for(TimingTier::confirm), slow, 100.0)) << "racing is off on confirm";
}

TEST(SamplingDone, StopsAtSampleCapOrWallBudget) {
  auto const policy = policy_for(TimingTier::confirm);
  EXPECT_TRUE(sampling_done(policy, policy.max_samples, 1.0, 10.0));
  EXPECT_FALSE(sampling_done(policy, 3, 30.0, 4999.0));
  EXPECT_TRUE(sampling_done(policy, 3, 30.0, 5000.0));
  EXPECT_FALSE(sampling_done(policy, 0, 0.0, 9000.0)) << "never stop with no sample";
}

}  // namespace timing_policy_test
}  // namespace kopt
