// The energy and composite objectives of `kopt optimize`, end to end with the fake evaluator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kopt/optimize.hpp"
#include "kopt/store.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace objective_test {

constexpr double kReferenceJ = 2.0;

// Lowest J/call at BLOCK=128, VEC=2, ITEMS=4, away from the fastest point (BLOCK=256, VEC=4, ITEMS=2).
FakeResult frugal_landscape(std::map<std::string, std::string, std::less<>> const& knobs) {
  FakeResult result = test::landscape(knobs);
  double const block = static_cast<double>(test::knob(knobs, "BLOCK"));
  double const vec = static_cast<double>(test::knob(knobs, "VEC"));
  double const items = static_cast<double>(test::knob(knobs, "ITEMS"));
  result.energy_j = 0.5 * (1.0 + 0.3 * std::abs(std::log2(block) - 7.0) +
                           0.2 * std::abs(std::log2(vec) - 1.0) + 0.1 * std::abs(std::log2(items) - 2.0));
  result.reference_energy_j = kReferenceJ;
  return result;
}

// Energy follows speed (gain = speedup) except at the fastest point, which burns three times as much:
// the composite optimum is the fastest of the others.
FakeResult power_hungry_peak(std::map<std::string, std::string, std::less<>> const& knobs) {
  FakeResult result = test::landscape(knobs);
  if (result.status != CandidateStatus::ok) return result;
  double const speedup = result.reference_us[0] / result.candidate_us[0];
  bool const peak =
      test::knob(knobs, "BLOCK") == 256 && test::knob(knobs, "VEC") == 4 && test::knob(knobs, "ITEMS") == 2;
  result.energy_j = kReferenceJ / speedup * (peak ? 3.0 : 1.0);
  result.reference_energy_j = kReferenceJ;
  return result;
}

struct ObjectiveFixture : ::testing::Test {
  void SetUp() override {
    auto loaded = load_task(test::kTaskDir);
    ASSERT_TRUE(loaded) << loaded.error().message;
    task = *loaded;
    source = test::read_text(test::kTunable);
    auto opened = Store::open(dir.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store = std::make_unique<Store>(std::move(*opened));
  }
  OptimizeOptions options(OptimizeObjective objective, std::size_t budget = 100) {
    OptimizeOptions o;
    o.strategy = "exhaustive";
    o.max_evaluations = budget;
    o.seed = 3;
    o.source_path = test::kTunable;
    o.objective = objective;
    return o;
  }
  std::vector<StoredEvaluation> screen_ok(RunId run) {
    auto history = store->load_run(run);
    EXPECT_TRUE(history) << history.error().message;
    std::vector<StoredEvaluation> ok;
    for (auto const& e : history->evaluations)
      if (e.evaluation.tier == "screen" && e.evaluation.status == CandidateStatus::ok) ok.push_back(e);
    return ok;
  }
  test::TempDir dir;
  TaskSpec task;
  std::string source;
  std::unique_ptr<Store> store;
};

nlohmann::json const& energy_entry(StoredEvaluation const& evaluation) {
  for (auto const& size : evaluation.evaluation.sizes)
    if (size.contains("energy_j_per_call")) return size;
  static nlohmann::json const none;
  return none;
}

TEST_F(ObjectiveFixture, EnergyPicksTheLowestJoulesPerCallEvenWhenItIsNotTheFastest) {
  FakeCandidateEvaluator fake(frugal_landscape);
  auto result = optimize(task, source, options(OptimizeObjective::energy), fake, *store);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->objective, OptimizeObjective::energy);

  auto const ok = screen_ok(result->run);
  ASSERT_GT(ok.size(), 10u);
  double min_j = 1e9, max_speedup = 0.0;
  for (auto const& e : ok) {
    auto const& energy = energy_entry(e);
    ASSERT_TRUE(energy.is_object()) << "no energy recorded";
    EXPECT_EQ(energy["size"], "large");  // the largest timed size case
    EXPECT_DOUBLE_EQ(energy["reference_energy_j_per_call"].get<double>(), kReferenceJ);
    EXPECT_TRUE(energy.contains("energy_spread_j"));
    EXPECT_GT(energy["avg_watts"].get<double>(), 0.0);
    ASSERT_TRUE(e.evaluation.objective_score);
    EXPECT_NEAR(*e.evaluation.objective_score, kReferenceJ / energy["energy_j_per_call"].get<double>(),
                1e-12);
    min_j = std::min(min_j, energy["energy_j_per_call"].get<double>());
    max_speedup = std::max(max_speedup, *e.evaluation.geomean_speedup);
  }
  EXPECT_EQ(result->incumbent_config, "BLOCK=128;ITEMS=4;VEC=2");
  ASSERT_TRUE(result->incumbent_screen_score);
  EXPECT_NEAR(*result->incumbent_screen_score, kReferenceJ / min_j, 1e-12);
  ASSERT_TRUE(result->incumbent_screen_speedup);  // the runtime speedup, honestly labelled
  EXPECT_LT(*result->incumbent_screen_speedup, max_speedup);

  // The reference is measured once on the screen tier and once more by the confirm step.
  EXPECT_EQ(fake.energy_calls(), ok.size() + 1);
  EXPECT_EQ(fake.reference_energy_calls(), 2u);
  ASSERT_TRUE(result->confirmed);
  EXPECT_EQ(result->confirmed->status, CandidateStatus::ok);
  ASSERT_TRUE(result->confirmed_score);
  EXPECT_NEAR(*result->confirmed_score, kReferenceJ / min_j, 1e-12);

  // The store ranks by the objective score: the frugal candidate, not the fastest.
  auto best_screen = store->best_candidate(result->run, std::string_view("screen"));
  ASSERT_TRUE(best_screen && *best_screen);
  ASSERT_TRUE(result->incumbent);
  EXPECT_EQ((*best_screen)->candidate.id, *result->incumbent);
  auto best = store->best_verified_candidate(result->run);
  ASSERT_TRUE(best && *best);
  EXPECT_EQ((*best)->evaluation.evaluation.tier, "confirm");
  EXPECT_EQ((*best)->candidate.id, *result->incumbent);
}

TEST_F(ObjectiveFixture, CompositePicksTheBestSquareRootOfSpeedupTimesEnergyGain) {
  FakeCandidateEvaluator fake(power_hungry_peak);
  auto result = optimize(task, source, options(OptimizeObjective::composite), fake, *store);
  ASSERT_TRUE(result) << result.error().message;
  auto const ok = screen_ok(result->run);
  double best_composite = 0.0;
  for (auto const& e : ok) {
    double const gain = kReferenceJ / energy_entry(e)["energy_j_per_call"].get<double>();
    double const composite = std::sqrt(*e.evaluation.geomean_speedup * gain);
    ASSERT_TRUE(e.evaluation.objective_score);
    EXPECT_NEAR(*e.evaluation.objective_score, composite, 1e-9);
    best_composite = std::max(best_composite, composite);
  }
  EXPECT_NE(result->incumbent_config, "BLOCK=256;ITEMS=2;VEC=4");  // the fastest burns too much
  ASSERT_TRUE(result->incumbent_screen_score);
  EXPECT_NEAR(*result->incumbent_screen_score, best_composite, 1e-9);
  auto best_screen = store->best_candidate(result->run, std::string_view("screen"));
  ASSERT_TRUE(best_screen && *best_screen);
  EXPECT_NEAR(*(*best_screen)->evaluation.evaluation.objective_score, best_composite, 1e-9);

  // The runtime objective on the same landscape: the fastest, no energy measured, no objective score.
  FakeCandidateEvaluator runtime_fake(power_hungry_peak);
  auto runtime = optimize(task, source, options(OptimizeObjective::runtime), runtime_fake, *store);
  ASSERT_TRUE(runtime) << runtime.error().message;
  EXPECT_EQ(runtime->incumbent_config, "BLOCK=256;ITEMS=2;VEC=4");
  EXPECT_EQ(runtime_fake.energy_calls(), 0u);
  EXPECT_FALSE(runtime->incumbent_screen_score);
  for (auto const& e : screen_ok(runtime->run)) EXPECT_FALSE(e.evaluation.objective_score);
}

TEST_F(ObjectiveFixture, EnergyWithoutNvmlStopsAtTheFirstMeasurementNamingTheOption) {
  FakeCandidateEvaluator fake(test::landscape);  // no energy: as a machine without NVML
  auto result = optimize(task, source, options(OptimizeObjective::energy), fake, *store);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("--objective energy"), std::string::npos) << result.error().message;
  EXPECT_NE(result.error().message.find("energy: unavailable"), std::string::npos) << result.error().message;
  EXPECT_EQ(result.error().code, ErrorCode::not_found);
  EXPECT_EQ(fake.energy_calls(), 1u);
  auto runs = store->list_runs();
  ASSERT_TRUE(runs);
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ(runs->front().status, RunStatus::interrupted);
}

TEST_F(ObjectiveFixture, ResumeKeepsTheRunsObjective) {
  // The first session loses its energy counter at BLOCK=512: the run stops, interrupted.
  FakeCandidateEvaluator flaky([](auto const& knobs) {
    FakeResult result = frugal_landscape(knobs);
    if (test::knob(knobs, "BLOCK") == 512) result.energy_j.reset();
    return result;
  });
  auto first = optimize(task, source, options(OptimizeObjective::energy), flaky, *store);
  ASSERT_FALSE(first);
  auto info = load_optimize_run(*store, RunId(1));
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->status, "interrupted");
  EXPECT_EQ(info->options.objective, OptimizeObjective::energy);
  std::size_t const recorded = store->load_run(RunId(1))->evaluations.size();
  ASSERT_GT(recorded, 0u);

  FakeCandidateEvaluator fake(frugal_landscape);
  auto resumed = resume(RunId(1), task, fake, *store);
  ASSERT_TRUE(resumed) << resumed.error().message;
  EXPECT_EQ(resumed->objective, OptimizeObjective::energy);
  EXPECT_GE(resumed->from_store, recorded);
  EXPECT_GT(fake.energy_calls(), 0u);
  EXPECT_EQ(resumed->incumbent_config, "BLOCK=128;ITEMS=4;VEC=2");
  for (auto const& e : screen_ok(RunId(1))) EXPECT_TRUE(e.evaluation.objective_score);
}

}  // namespace objective_test
}  // namespace kopt
