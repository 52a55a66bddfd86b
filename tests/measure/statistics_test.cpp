#include <gtest/gtest.h>

#include <vector>

#include "kopt/measure.hpp"

namespace kopt {
namespace statistics_test {

TEST(Summarize, EmptyInputHasCountZero) {
  std::vector<double> none;
  auto const stats = summarize(none);
  EXPECT_EQ(stats.count, 0);
  EXPECT_EQ(stats.median, 0.0);
  EXPECT_EQ(stats.relative_spread(), 0.0);
}

TEST(Summarize, SingleSampleIsEveryStatistic) {
  std::vector<double> one{7.5};
  auto const stats = summarize(one);
  EXPECT_EQ(stats.count, 1);
  EXPECT_DOUBLE_EQ(stats.median, 7.5);
  EXPECT_DOUBLE_EQ(stats.q1, 7.5);
  EXPECT_DOUBLE_EQ(stats.q3, 7.5);
  EXPECT_DOUBLE_EQ(stats.min, 7.5);
  EXPECT_DOUBLE_EQ(stats.max, 7.5);
  EXPECT_DOUBLE_EQ(stats.iqr(), 0.0);
}

TEST(Summarize, OddCountUnsortedInput) {
  std::vector<double> samples{5.0, 1.0, 3.0, 2.0, 4.0};
  auto const stats = summarize(samples);
  EXPECT_EQ(stats.count, 5);
  EXPECT_DOUBLE_EQ(stats.median, 3.0);
  EXPECT_DOUBLE_EQ(stats.q1, 2.0);  // position 0.25 * 4 = 1
  EXPECT_DOUBLE_EQ(stats.q3, 4.0);  // position 3
  EXPECT_DOUBLE_EQ(stats.min, 1.0);
  EXPECT_DOUBLE_EQ(stats.max, 5.0);
  EXPECT_DOUBLE_EQ(stats.mean, 3.0);
}

TEST(Summarize, EvenCountInterpolatesLinearly) {
  std::vector<double> samples{4.0, 2.0, 1.0, 3.0};
  auto const stats = summarize(samples);
  EXPECT_DOUBLE_EQ(stats.median, 2.5);  // position 1.5
  EXPECT_DOUBLE_EQ(stats.q1, 1.75);     // position 0.75
  EXPECT_DOUBLE_EQ(stats.q3, 3.25);     // position 2.25
  EXPECT_DOUBLE_EQ(stats.mean, 2.5);
  EXPECT_DOUBLE_EQ(stats.iqr(), 1.5);
  EXPECT_DOUBLE_EQ(stats.relative_spread(), 1.5 / 2.5);
}

TEST(Summarize, SkewedSamplesKeepMedianAwayFromMean) {
  std::vector<double> samples{10, 10, 10, 11, 11, 12, 100};
  auto const stats = summarize(samples);
  EXPECT_DOUBLE_EQ(stats.median, 11.0);
  EXPECT_DOUBLE_EQ(stats.q1, 10.0);  // position 1.5 between 10 and 10
  EXPECT_DOUBLE_EQ(stats.q3, 11.5);  // position 4.5 between 11 and 12
  EXPECT_NEAR(stats.mean, 164.0 / 7.0, 1e-12);
  EXPECT_DOUBLE_EQ(stats.max, 100.0);
}

TEST(Summarize, TenSamplesQuartiles) {
  std::vector<double> samples{10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  auto const stats = summarize(samples);
  EXPECT_DOUBLE_EQ(stats.median, 5.5);  // position 4.5
  EXPECT_DOUBLE_EQ(stats.q1, 3.25);     // position 2.25
  EXPECT_DOUBLE_EQ(stats.q3, 7.75);     // position 6.75
}

}  // namespace statistics_test
}  // namespace kopt
