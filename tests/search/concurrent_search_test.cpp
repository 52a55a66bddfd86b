// run_search with several evaluations in flight (Budget::concurrent_evaluations): the batches the
// objective sees, the budget, uniqueness, and MCTS's virtual loss.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "kopt/search.hpp"
#include "search/search_test_support.hpp"

namespace kopt {
namespace concurrent_search_test {

using test::BowlObjective;
using test::cube;
using test::distinct_points;

// Records the size of every batch and the proposals of each, and answers from a synthetic landscape.
class BatchRecordingObjective final : public Objective {
 public:
  explicit BatchRecordingObjective(SyntheticSpec spec) : inner_(std::move(spec)) {}
  Outcome evaluate(Point const& point) override {
    batches.push_back({Proposal{point, {}, {}}});
    return inner_.evaluate(point);
  }
  std::vector<Outcome> evaluate_batch(std::vector<Proposal> const& proposals) override {
    batches.push_back(proposals);
    std::vector<Outcome> outcomes;
    outcomes.reserve(proposals.size());
    for (Proposal const& proposal : proposals) outcomes.push_back(inner_.evaluate(proposal.point));
    return outcomes;
  }
  std::vector<std::vector<Proposal>> batches;

 private:
  SyntheticEvaluator inner_;
};

class EveryStrategyConcurrently : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryStrategyConcurrently, FillsEveryBatchButTheLastAndNeverEvaluatesAPointTwice) {
  auto const spec = rugged_landscapes()[0];
  auto const constraint = [](Point const& p) { return p[0] * p[1] < 20; };
  GridSpace space(spec.dims, constraint);
  BatchRecordingObjective objective(spec);
  auto strategy = make_strategy(GetParam());
  auto result = run_search(space, objective, *strategy, Budget{101, 0.0, 4}, 5);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->trajectory.size(), 101U) << "the budget, exactly: the last batch is cut to what is left";
  EXPECT_EQ(distinct_points(*result).size(), 101U);
  EXPECT_EQ(result->stop_reason, StopReason::evaluations);
  ASSERT_EQ(objective.batches.size(), 26U) << "25 batches of 4 and one of 1";
  for (std::size_t i = 0; i + 1 < objective.batches.size(); ++i) EXPECT_EQ(objective.batches[i].size(), 4U);
  EXPECT_EQ(objective.batches.back().size(), 1U);
  // The trajectory holds each batch's points in proposal order.
  std::size_t index = 0;
  for (auto const& batch : objective.batches) {
    for (Proposal const& proposal : batch) EXPECT_EQ(result->trajectory[index++].point, proposal.point);
  }
  for (auto const& e : result->trajectory) EXPECT_TRUE(constraint(e.point)) << to_string(e.point);
}

TEST_P(EveryStrategyConcurrently, OneInFlightIsTheSequentialSearch) {
  auto const spec = rugged_landscapes()[1];
  GridSpace space(spec.dims);
  auto run = [&](std::size_t concurrent) {
    SyntheticEvaluator evaluator(spec);
    auto strategy = make_strategy(GetParam());
    auto result = run_search(space, evaluator, *strategy, Budget{120, 0.0, concurrent}, 7);
    EXPECT_TRUE(result);
    std::vector<Point> points;
    for (auto const& e : result->trajectory) points.push_back(e.point);
    return points;
  };
  EXPECT_EQ(run(1), run(1));
  if (find_search_strategy(GetParam())->proposals_ignore_outcomes) {
    EXPECT_EQ(run(1), run(6)) << "proposals that ignore outcomes come in the same order in batches";
  }
}

INSTANTIATE_TEST_SUITE_P(Search, EveryStrategyConcurrently, ::testing::ValuesIn(search_strategy_names()));

TEST(ConcurrentSearch, LocalStrategiesStillFindTheOptimumOfASmoothSpace) {
  GridSpace space(cube(3, 7));
  Point const optimum{5, 1, 4};
  for (std::string const name : {"mcts", "greedy"}) {
    for (std::uint64_t seed : {1U, 2U, 3U}) {
      BowlObjective objective(optimum);
      auto strategy = make_strategy(name);
      auto result = run_search(space, objective, *strategy, Budget{100, 0.0, 4}, seed);
      ASSERT_TRUE(result) << result.error().message;
      ASSERT_TRUE(result->incumbent.has_value());
      EXPECT_EQ(result->trajectory[*result->incumbent].point, optimum) << name << " seed " << seed;
    }
  }
}

TEST(ConcurrentSearch, MctsSpreadsABatchAndClearsItsVirtualLossWhenOutcomesReturn) {
  GridSpace space(cube(4, 5), {}, Point{2, 2, 2, 2});
  BowlObjective objective({4, 0, 4, 0});
  MctsStrategy strategy;
  auto result = run_search(space, objective, strategy, Budget{64, 0.0, 8}, 3);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->trajectory.size(), 64U);
  for (auto const& e : result->trajectory) {
    auto const node = strategy.node(e.point);
    ASSERT_TRUE(node.has_value());
    EXPECT_EQ(node->in_flight, 0) << "every outcome came back: no virtual loss left at "
                                  << to_string(e.point);
  }
  // Within a batch, the proposals expand more than one node of the tree: virtual loss moves the later
  // ones of a batch away from the path the first took.
  std::size_t spread_batches = 0;
  for (std::size_t first = 8; first + 8 <= result->trajectory.size(); first += 8) {
    std::set<std::optional<std::size_t>> parents;
    for (std::size_t i = first; i < first + 8; ++i) parents.insert(result->trajectory[i].parent);
    if (parents.size() > 1) ++spread_batches;
  }
  EXPECT_GE(spread_batches, 5U) << "of the 7 batches after the first";
}

// A strategy that proposes the same point again before its outcome is back (against the contract): the
// batch ends there, the point is evaluated once, and the repeat is answered from the cache.
class RepeatingStrategy final : public Strategy {
 public:
  std::string_view name() const override { return "repeating"; }
  void start(SearchSpace const& /*space*/, std::uint64_t /*seed*/) override {}
  std::optional<Proposal> propose(SearchHistory const& history) override {
    if (history.evaluations().size() >= 2) return std::nullopt;
    Point const point = history.contains(Point{0, 0}) ? Point{1, 1} : Point{0, 0};
    return Proposal{point, {}, {}};
  }
  void observe(Proposal const& /*proposal*/, Evaluation const& /*evaluation*/, bool fresh) override {
    fresh_.push_back(fresh);
  }
  std::vector<bool> fresh_;
};

TEST(ConcurrentSearch, APointProposedTwiceInOneBatchIsEvaluatedOnce) {
  GridSpace space(cube(2, 3));
  BowlObjective objective({1, 1});
  RepeatingStrategy strategy;
  auto result = run_search(space, objective, strategy, Budget{10, 0.0, 4}, 1);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(objective.calls, 2);
  ASSERT_EQ(result->trajectory.size(), 2U);
  EXPECT_EQ(result->trajectory[0].point, (Point{0, 0}));
  EXPECT_EQ(result->trajectory[1].point, (Point{1, 1}));
  EXPECT_EQ(result->repeated_proposals, 2U);
  EXPECT_EQ(strategy.fresh_, (std::vector<bool>{true, false, true, false}));
  EXPECT_EQ(result->stop_reason, StopReason::exhausted);
}

TEST(ConcurrentSearch, NoneInFlightIsRefused) {
  BowlObjective objective({1, 1});
  auto strategy = make_random_strategy();
  auto result = run_search(GridSpace(cube(2, 3)), objective, *strategy, Budget{10, 0.0, 0}, 1);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("concurrent_evaluations"), std::string::npos);
}

}  // namespace concurrent_search_test
}  // namespace kopt
