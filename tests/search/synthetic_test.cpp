#include <gtest/gtest.h>

#include <map>

#include "kopt/search.hpp"

namespace kopt {
namespace synthetic_test {

SyntheticSpec small_spec() {
  SyntheticSpec spec;
  spec.dims = {{"A", 8}, {"B", 8}, {"C", 6}};
  spec.landscape_seed = 7;
  spec.failure_boxes = 3;
  spec.failure_rate = 0.05;
  return spec;
}

TEST(SyntheticEvaluator, IsDeterministicAndCountsCalls) {
  SyntheticEvaluator a(small_spec());
  SyntheticEvaluator b(small_spec());
  for (std::uint64_t i = 0; i < point_count(small_spec().dims); i += 7) {
    auto const p = point_at(small_spec().dims, i);
    auto const x = a.evaluate(p);
    auto const y = b.evaluate(p);
    EXPECT_EQ(x.status, y.status);
    EXPECT_EQ(x.size_medians_us, y.size_medians_us);
  }
  EXPECT_EQ(a.calls(), b.calls());
  EXPECT_GT(a.calls(), 0U);
}

TEST(SyntheticEvaluator, HasAllThreeFailureKindsAndConsistentOkOutcomes) {
  auto const spec = small_spec();
  SyntheticEvaluator evaluator(spec);
  std::map<CandidateStatus, int> counts;
  double lowest = 1e300;
  double highest = 0.0;
  for (std::uint64_t i = 0; i < point_count(spec.dims); ++i) {
    auto const outcome = evaluator.exact(point_at(spec.dims, i));
    ++counts[outcome.status];
    if (outcome.status == CandidateStatus::ok) {
      EXPECT_TRUE(outcome_problem(outcome).empty());
      EXPECT_EQ(outcome.size_medians_us.size(), 3U);
      double const s = *geomean_speedup(outcome);
      lowest = std::min(lowest, s);
      highest = std::max(highest, s);
    }
  }
  EXPECT_GT(counts[CandidateStatus::compile_error], 0);
  EXPECT_GT(counts[CandidateStatus::launch_error], 0);
  EXPECT_GT(counts[CandidateStatus::wrong_output], 0);
  EXPECT_GT(counts[CandidateStatus::ok], static_cast<int>(point_count(spec.dims) / 2));
  EXPECT_GT(highest / lowest, 4.0);  // a landscape worth searching
}

TEST(SyntheticEvaluator, MeasurementNoiseIsSeededAndReportedAsIqr) {
  auto spec = small_spec();
  spec.failure_boxes = 0;
  spec.failure_rate = 0.0;
  spec.measurement_noise = 0.05;
  spec.noise_seed = 1;
  SyntheticEvaluator noisy(spec);
  SyntheticEvaluator same(spec);
  spec.noise_seed = 2;
  SyntheticEvaluator other(spec);
  Point const p{3, 4, 2};
  auto const exact = noisy.exact(p);
  auto const x = noisy.evaluate(p);
  EXPECT_EQ(x.size_medians_us, same.evaluate(p).size_medians_us);
  EXPECT_NE(x.size_medians_us, other.evaluate(p).size_medians_us);
  EXPECT_NE(x.size_medians_us, exact.size_medians_us);
  for (std::size_t s = 0; s < x.size_medians_us.size(); ++s) {
    EXPECT_NEAR(x.size_medians_us[s], exact.size_medians_us[s], 0.051 * exact.size_medians_us[s]);
    EXPECT_GT(x.size_iqr_us[s], 0.0);
    EXPECT_EQ(exact.size_iqr_us[s], 0.0);
  }
}

TEST(SyntheticEvaluator, RuggedLandscapesHaveTheAdvertisedSizes) {
  auto const specs = rugged_landscapes();
  ASSERT_GE(specs.size(), 2U);
  for (auto const& spec : specs) {
    EXPECT_GE(spec.dims.size(), 4U);
    EXPECT_GE(point_count(spec.dims), 2000U);
    EXPECT_LE(point_count(spec.dims), 20000U);
  }
}

}  // namespace synthetic_test
}  // namespace kopt
