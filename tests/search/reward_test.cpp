#include <gtest/gtest.h>

#include <cmath>

#include "kopt/search.hpp"
#include "search/search_test_support.hpp"

namespace kopt {
namespace reward_test {

using test::timed;

TEST(Reward, IsLogOfGeomeanSpeedup) {
  auto const outcome = timed({50.0, 400.0}, {}, {100.0, 200.0});  // 2x and 0.5x
  ASSERT_TRUE(geomean_speedup(outcome).has_value());
  EXPECT_NEAR(*geomean_speedup(outcome), 1.0, 1e-12);
  EXPECT_NEAR(reward(outcome), 0.0, 1e-12);
  EXPECT_NEAR(reward(timed({25.0}, {}, {100.0})), std::log(4.0), 1e-12);
}

TEST(Reward, PenaltiesFollowThePipelineAndSitBelowAFourTimesSlowdown) {
  EXPECT_LT(failure_penalty(CandidateStatus::compile_error), failure_penalty(CandidateStatus::launch_error));
  EXPECT_LT(failure_penalty(CandidateStatus::launch_error), failure_penalty(CandidateStatus::wrong_output));
  EXPECT_LT(failure_penalty(CandidateStatus::load_error), failure_penalty(CandidateStatus::runtime_error));
  for (auto status : {CandidateStatus::compile_error, CandidateStatus::load_error,
                      CandidateStatus::launch_error, CandidateStatus::runtime_error, CandidateStatus::timeout,
                      CandidateStatus::wrong_output, CandidateStatus::nondeterministic,
                      CandidateStatus::input_mutated, CandidateStatus::out_of_bounds_write,
                      CandidateStatus::implausibly_fast, CandidateStatus::sandbox_violation}) {
    EXPECT_LT(failure_penalty(status), std::log(0.25)) << to_string(status);
    Outcome failed;
    failed.status = status;
    EXPECT_EQ(reward(failed), failure_penalty(status));
  }
}

TEST(Reward, InconsistentOkOutcomesAreDetected) {
  EXPECT_FALSE(outcome_problem(timed({}, {}, {})).empty());
  EXPECT_NE(outcome_problem(timed({1.0, 2.0}, {}, {1.0})).find("reference_us"), std::string::npos);
  EXPECT_NE(outcome_problem(timed({1.0}, {0.1, 0.1}, {1.0})).find("size_iqr_us"), std::string::npos);
  EXPECT_NE(outcome_problem(timed({0.0}, {}, {1.0})).find("size_medians_us[0]"), std::string::npos);
  EXPECT_TRUE(outcome_problem(timed({1.0}, {0.1}, {1.0})).empty());
  EXPECT_FALSE(geomean_speedup(timed({1.0, 2.0}, {}, {1.0})).has_value());
}

TEST(Guardrail, FasterOnEverySizeReplacesTheIncumbent) {
  auto const incumbent = timed({100.0, 200.0}, {1.0, 1.0}, {100.0, 200.0});
  EXPECT_TRUE(improves_on(timed({90.0, 190.0}, {1.0, 1.0}, {100.0, 200.0}), incumbent));
}

TEST(Guardrail, FasterOverallButSlowerOnOneSizeBeyondNoiseIsRejected) {
  auto const incumbent = timed({100.0, 200.0}, {1.0, 1.0}, {100.0, 200.0});
  // 2x faster on size 0, 5% slower on size 1 (noise: max(1, 1% of 200 = 2) us).
  EXPECT_FALSE(improves_on(timed({50.0, 210.0}, {1.0, 1.0}, {100.0, 200.0}), incumbent));
}

TEST(Guardrail, SlowerWithinTheOnePercentFloorIsTolerated) {
  auto const incumbent = timed({100.0, 200.0}, {0.0, 0.0}, {100.0, 200.0});
  EXPECT_TRUE(improves_on(timed({50.0, 201.9}, {0.0, 0.0}, {100.0, 200.0}), incumbent));
  EXPECT_FALSE(improves_on(timed({50.0, 202.1}, {0.0, 0.0}, {100.0, 200.0}), incumbent));
}

TEST(Guardrail, SlowerWithinMeasuredIqrNoiseIsTolerated) {
  auto const incumbent = timed({100.0, 200.0}, {10.0, 10.0}, {100.0, 200.0});
  // noise on size 1 = (10 + 10) / 2 = 10 us > 1% of 200.
  EXPECT_TRUE(improves_on(timed({50.0, 209.0}, {10.0, 10.0}, {100.0, 200.0}), incumbent));
  EXPECT_FALSE(improves_on(timed({50.0, 211.0}, {10.0, 10.0}, {100.0, 200.0}), incumbent));
}

TEST(Guardrail, MustBeStrictlyFasterOverall) {
  auto const incumbent = timed({100.0, 200.0}, {}, {100.0, 200.0});
  EXPECT_FALSE(improves_on(timed({100.0, 200.0}, {}, {100.0, 200.0}), incumbent));
  EXPECT_FALSE(improves_on(timed({100.5, 200.5}, {}, {100.0, 200.0}), incumbent));  // within noise, slower
}

TEST(Guardrail, FailedOrIncomparableCandidatesNeverReplace) {
  auto const incumbent = timed({100.0, 200.0}, {}, {100.0, 200.0});
  auto failed = timed({10.0, 20.0}, {}, {100.0, 200.0});
  failed.status = CandidateStatus::wrong_output;
  EXPECT_FALSE(improves_on(failed, incumbent));
  EXPECT_FALSE(improves_on(timed({10.0}, {}, {100.0}), incumbent));  // other size cases
  Outcome failed_incumbent;
  failed_incumbent.status = CandidateStatus::compile_error;
  EXPECT_TRUE(improves_on(timed({500.0}, {}, {100.0}), failed_incumbent));
}

TEST(Guardrail, MinimumRelativeNoiseIsConfigurable) {
  auto const candidate = timed({104.0, 50.0}, {}, {100.0, 100.0});
  auto const two_sizes = timed({100.0, 100.0}, {}, {100.0, 100.0});
  EXPECT_FALSE(improves_on(candidate, two_sizes));
  EXPECT_TRUE(improves_on(candidate, two_sizes, GuardrailConfig{0.05}));
}

}  // namespace reward_test
}  // namespace kopt
