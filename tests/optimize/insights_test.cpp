// optimize records the cheap insights of every ok evaluation, none for failures, and a resume does not
// duplicate them; the store-backed InsightSource hands them on.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "kopt/optimize.hpp"
#include "kopt/store.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace insights_test {

// The landscape with ptxas reporting spills when VEC=4.
FakeResult spilling_at_vec4(std::map<std::string, std::string, std::less<>> const& knobs) {
  FakeResult result = test::landscape(knobs);
  result.resources =
      test::knob(knobs, "VEC") == 4 ? ResourceUsage{255, 512, 512, 0, 1024} : ResourceUsage{32, 0, 0, 0, 0};
  return result;
}

// Fails (kopt cannot go on) after `limit` candidates, like a worker that died.
class FailingEvaluator final : public CandidateEvaluator {
 public:
  FailingEvaluator(FakeFunction function, std::size_t limit) : fake_(std::move(function)), limit_(limit) {}
  EvaluationTarget target() const override { return fake_.target(); }
  Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                std::vector<CandidateInput> const& inputs,
                                                TimingTier tier) override {
    if (fake_.calls() + inputs.size() > limit_) return make_error(ErrorCode::internal_error, "worker died");
    return fake_.evaluate(task, inputs, tier);
  }

 private:
  FakeCandidateEvaluator fake_;
  std::size_t limit_;
};

struct InsightRun : ::testing::Test {
  void SetUp() override {
    auto loaded = load_task(test::kTaskDir);
    ASSERT_TRUE(loaded) << loaded.error().message;
    task = *loaded;
    auto opened = Store::open(dir.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store.emplace(std::move(*opened));
  }
  OptimizeOptions options(std::string strategy, std::size_t budget) {
    OptimizeOptions o;
    o.strategy = std::move(strategy);
    o.max_evaluations = budget;
    o.seed = 5;
    o.source_path = test::kTunable;
    return o;
  }
  // Insights per evaluation of the run, and checks that none is duplicated.
  std::map<std::int64_t, std::vector<StoredInsight>> insights_by_evaluation(RunId run) {
    auto insights = store->insights_for_run(run);
    EXPECT_TRUE(insights) << insights.error().message;
    std::map<std::int64_t, std::vector<StoredInsight>> by_evaluation;
    std::set<std::tuple<std::int64_t, std::string, std::string>> keys;
    for (StoredInsight const& insight : *insights) {
      EXPECT_TRUE(
          keys.emplace(insight.evaluation.value(), insight.insight.source, insight.insight.size).second);
      by_evaluation[insight.evaluation.value()].push_back(insight);
    }
    return by_evaluation;
  }
  test::TempDir dir;
  TaskSpec task;
  std::optional<Store> store;
};

TEST_F(InsightRun, OkEvaluationsGetOneRooflineInsightPerTimedSizeFailuresNone) {
  FakeCandidateEvaluator fake(spilling_at_vec4);
  auto result = optimize(task, test::read_text(test::kTunable), options("exhaustive", 100), fake, *store);
  ASSERT_TRUE(result) << result.error().message;
  auto history = store->load_run(result->run);
  ASSERT_TRUE(history);
  auto const by_evaluation = insights_by_evaluation(result->run);
  std::size_t ok = 0;
  std::size_t failed = 0;
  std::size_t spilling = 0;
  for (StoredEvaluation const& evaluation : history->evaluations) {
    auto const found = by_evaluation.find(evaluation.id.value());
    if (evaluation.evaluation.status != CandidateStatus::ok) {
      ++failed;
      EXPECT_EQ(found, by_evaluation.end());
      continue;
    }
    ++ok;
    ASSERT_NE(found, by_evaluation.end());
    ASSERT_EQ(found->second.size(), 2u);  // medium and large; odd is verify-only
    EXPECT_EQ(found->second[0].insight.size, "medium");
    EXPECT_EQ(found->second[1].insight.size, "large");
    for (StoredInsight const& stored : found->second) {
      EXPECT_EQ(stored.candidate, evaluation.candidate);
      auto insight = insight_from_json(stored.insight.document);
      ASSERT_TRUE(insight) << insight.error().message;
      EXPECT_EQ(insight->source, "roofline");
      EXPECT_EQ(insight->classification.basis, ClassificationBasis::roofline);  // the fake's ceilings
      EXPECT_EQ(stored.insight.bottleneck, to_string(insight->classification.bottleneck));
      bool const spills = std::any_of(insight->findings.begin(), insight->findings.end(),
                                      [](Finding const& f) { return f.tool == "register_spills"; });
      spilling += spills ? 1 : 0;
    }
  }
  EXPECT_GT(ok, 0u);
  EXPECT_GT(failed, 0u);  // BLOCK=64 && ITEMS=8 is wrong output
  EXPECT_GT(spilling, 0u);

  // The InsightSource of a search node: the candidate's current insights, with the spills.
  auto source = make_store_insight_source(*store);
  ASSERT_TRUE(result->incumbent);
  auto incumbent = source->insights(*result->incumbent);
  ASSERT_TRUE(incumbent) << incumbent.error().message;
  ASSERT_EQ(incumbent->size(), 2u);  // screen and confirm evaluations: newest per size
  EXPECT_EQ(incumbent->back().size, "large");
  std::vector<std::string> const strategies = suggested_strategies(*incumbent);
  ASSERT_FALSE(strategies.empty());  // the best has VEC=4: it spills
  EXPECT_EQ(strategies.front(), "reduce_register_pressure");
  EXPECT_NE(describe_for_prompt(*incumbent, 4000).find("register_spills"), std::string::npos);
}

TEST_F(InsightRun, ResumeDoesNotDuplicateInsights) {
  std::string const source = test::read_text(test::kTunable);
  FailingEvaluator failing(test::landscape, 9);
  auto broken = optimize(task, source, options("greedy", 25), failing, *store);
  ASSERT_FALSE(broken);
  auto before = insights_by_evaluation(RunId(1));
  std::size_t before_count = 0;
  for (auto const& [id, rows] : before) before_count += rows.size();
  ASSERT_GT(before_count, 0u);

  FakeCandidateEvaluator fake(test::landscape);
  auto resumed = resume(RunId(1), task, fake, *store);
  ASSERT_TRUE(resumed) << resumed.error().message;
  EXPECT_GT(resumed->from_store, 0u);
  auto history = store->load_run(RunId(1));
  ASSERT_TRUE(history);
  auto const after = insights_by_evaluation(RunId(1));  // checks: no (evaluation, source, size) twice
  std::size_t ok = 0;
  for (StoredEvaluation const& evaluation : history->evaluations) {
    if (evaluation.evaluation.status != CandidateStatus::ok) continue;
    ++ok;
    auto const found = after.find(evaluation.id.value());
    ASSERT_NE(found, after.end());
    EXPECT_EQ(found->second.size(), 2u);
  }
  for (auto const& [id, rows] : before) EXPECT_EQ(after.at(id).size(), rows.size());
  EXPECT_EQ(after.size(), ok);
}

}  // namespace insights_test
}  // namespace kopt
