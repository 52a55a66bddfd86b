// record_of: what the store keeps of an evaluation, including each size's roofline; outcome_of: what a
// search sees of it under each objective.
#include <gtest/gtest.h>

#include <cmath>

#include "kopt/run_log.hpp"

namespace kopt {
namespace recorded_evaluation_test {

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

  auto const recorded = record_of(report, TimingTier::screen);
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

RecordedEvaluation two_sizes_with_energy() {
  RecordedEvaluation recorded;
  recorded.status = CandidateStatus::ok;
  recorded.sizes = nlohmann::json::array(
      {{{"size", "medium"}, {"verify_only", false}, {"median_us", 50.0}, {"reference_us", 100.0}},
       {{"size", "large"}, {"verify_only", false}, {"median_us", 250.0}, {"reference_us", 1000.0}}});
  EnergyMeasurement energy;
  energy.joules_per_call = {0.9, 1.0, 1.1};
  energy.avg_watts = 300.0;
  EXPECT_TRUE(add_energy(recorded, "large", energy, 9.0));
  EXPECT_FALSE(add_energy(recorded, "missing", energy, 9.0));
  return recorded;
}

TEST(OutcomeOf, EachObjectiveBuildsItsOwnVectors) {
  RecordedEvaluation const recorded = two_sizes_with_energy();
  auto const& large = recorded.sizes[1];
  EXPECT_DOUBLE_EQ(large["energy_j_per_call"].get<double>(), 1.0);
  EXPECT_NEAR(large["energy_spread_j"].get<double>(), 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(large["reference_energy_j_per_call"].get<double>(), 9.0);
  EXPECT_DOUBLE_EQ(large["avg_watts"].get<double>(), 300.0);

  auto const runtime = outcome_of(recorded, OptimizeObjective::runtime);
  EXPECT_EQ(runtime.medians_us, (std::vector<double>{50.0, 250.0}));
  auto const energy = outcome_of(recorded, OptimizeObjective::energy);
  EXPECT_EQ(energy.medians_us, (std::vector<double>{1.0}));
  EXPECT_EQ(energy.reference_us, (std::vector<double>{9.0}));
  ASSERT_EQ(energy.iqrs_us.size(), 1u);
  EXPECT_NEAR(energy.iqrs_us[0], 0.1, 1e-12);
  auto const composite = outcome_of(recorded, OptimizeObjective::composite);
  EXPECT_EQ(composite.medians_us, (std::vector<double>{50.0, 250.0, 1.0, 1.0}));
  EXPECT_EQ(composite.reference_us, (std::vector<double>{100.0, 1000.0, 9.0, 9.0}));

  // Runtime geomean sqrt(2 x 4); energy gain 9; composite sqrt(sqrt(8) x 9).
  EXPECT_FALSE(objective_score(recorded, OptimizeObjective::runtime));
  EXPECT_NEAR(*objective_score(recorded, OptimizeObjective::energy), 9.0, 1e-12);
  EXPECT_NEAR(*objective_score(recorded, OptimizeObjective::composite), std::sqrt(std::sqrt(8.0) * 9.0),
              1e-12);
}

TEST(OutcomeOf, WithoutEnergyTheEnergyObjectivesSeeNothing) {
  RecordedEvaluation recorded = two_sizes_with_energy();
  recorded.sizes[1].erase("energy_j_per_call");
  EXPECT_TRUE(outcome_of(recorded, OptimizeObjective::energy).medians_us.empty());
  EXPECT_TRUE(outcome_of(recorded, OptimizeObjective::composite).medians_us.empty());
  EXPECT_FALSE(objective_score(recorded, OptimizeObjective::energy));
  EXPECT_FALSE(has_energy(recorded));
}

}  // namespace recorded_evaluation_test
}  // namespace kopt
