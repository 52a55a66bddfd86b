#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "kopt/search.hpp"
#include "search/search_test_support.hpp"

namespace kopt {
namespace strategies_test {

using test::BowlObjective;
using test::cube;
using test::distinct_points;

Point best_point(SearchResult const& result) {
  return result.trajectory[*result.best_reward].point;
}

TEST(Strategies, EachFindsTheOptimumOfASmallSmoothSpace) {
  GridSpace space(cube(3, 7));  // 343 points, optimum at (5, 1, 4)
  Point const optimum{5, 1, 4};
  struct Case {
    std::string name;
    std::size_t budget;
  };
  // Random needs the whole space to be sure; the local strategies a fraction of it.
  for (auto const& c : {Case{"exhaustive", 343}, Case{"random", 343}, Case{"hill", 80}, Case{"mcts", 80}}) {
    for (std::uint64_t seed : {1U, 2U, 3U}) {
      BowlObjective objective(optimum);
      auto strategy = make_strategy(c.name);
      ASSERT_NE(strategy, nullptr);
      auto result = run_search(space, objective, *strategy, Budget{c.budget, 0.0}, seed);
      ASSERT_TRUE(result) << result.error().message;
      EXPECT_EQ(best_point(*result), optimum) << c.name << " seed " << seed;
      ASSERT_TRUE(result->incumbent.has_value());
      EXPECT_EQ(result->trajectory[*result->incumbent].point, optimum) << c.name;
    }
  }
  EXPECT_EQ(make_strategy("annealing"), nullptr);
}

TEST(Strategies, ExhaustiveVisitsEveryValidPointOnce) {
  auto const constraint = [](Point const& p) { return (p[0] + p[1] + p[2]) % 3 != 0; };
  GridSpace space(cube(3, 5), constraint);
  BowlObjective objective({2, 2, 2});
  auto strategy = make_exhaustive_strategy();
  auto result = run_search(space, objective, *strategy, Budget{1000, 0.0}, 1);
  ASSERT_TRUE(result);
  std::size_t valid = 0;
  for (std::uint64_t i = 0; i < 125; ++i) valid += constraint(point_at(cube(3, 5), i)) ? 1 : 0;
  EXPECT_EQ(result->trajectory.size(), valid);
  EXPECT_EQ(distinct_points(*result).size(), valid);
  EXPECT_EQ(objective.calls, static_cast<int>(valid));
  EXPECT_EQ(result->stop_reason, StopReason::exhausted);
}

class EveryStrategy : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryStrategy, RespectsConstraintsAndNeverEvaluatesAPointTwice) {
  auto spec = rugged_landscapes()[0];
  auto const constraint = [](Point const& p) { return p[0] * p[1] < 20; };  // like BLOCK * TILE <= limit
  GridSpace space(spec.dims, constraint);
  SyntheticEvaluator evaluator(spec);
  auto strategy = make_strategy(GetParam());
  auto result = run_search(space, evaluator, *strategy, Budget{400, 0.0}, 5);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->trajectory.size(), 400U);
  EXPECT_EQ(evaluator.calls(), 400U);
  EXPECT_EQ(distinct_points(*result).size(), 400U);
  EXPECT_EQ(result->stop_reason, StopReason::evaluations);
  for (auto const& e : result->trajectory) EXPECT_TRUE(constraint(e.point)) << to_string(e.point);
}

TEST_P(EveryStrategy, SameSeedSameTrajectory) {
  auto const spec = rugged_landscapes()[1];
  GridSpace space(spec.dims);
  auto run = [&](std::uint64_t seed) {
    SyntheticEvaluator evaluator(spec);
    auto strategy = make_strategy(GetParam());
    auto result = run_search(space, evaluator, *strategy, Budget{150, 0.0}, seed);
    EXPECT_TRUE(result);
    std::vector<std::tuple<Point, std::optional<std::size_t>, std::string>> steps;
    for (auto const& e : result->trajectory) steps.emplace_back(e.point, e.parent, e.action);
    return steps;
  };
  EXPECT_EQ(run(11), run(11));
  if (find_search_strategy(GetParam())->uses_seed) {
    EXPECT_NE(run(11), run(12));
  } else {
    EXPECT_EQ(run(11), run(12));
  }
}

TEST_P(EveryStrategy, RecordsParentsAndActionsThatLeadToThePoint) {
  auto const spec = rugged_landscapes()[2];
  GridSpace space(spec.dims);
  SyntheticEvaluator evaluator(spec);
  auto strategy = make_strategy(GetParam());
  auto result = run_search(space, evaluator, *strategy, Budget{200, 0.0}, 3);
  ASSERT_TRUE(result);
  int with_parent = 0;
  for (auto const& e : result->trajectory) {
    if (!e.parent) {
      EXPECT_TRUE(e.action.empty());
      continue;
    }
    ++with_parent;
    ASSERT_LT(*e.parent, e.index);
    bool found = false;
    for (auto const& a : space.actions(result->trajectory[*e.parent].point)) {
      found = found || (a.name == e.action && a.target == e.point);
    }
    EXPECT_TRUE(found) << e.action << " " << to_string(e.point);
  }
  EXPECT_EQ(with_parent > 100, find_search_strategy(GetParam())->follows_actions);
}

TEST_P(EveryStrategy, IncumbentOnlyMovesThroughTheGuardrail) {
  auto spec = rugged_landscapes()[0];
  spec.measurement_noise = 0.03;
  GridSpace space(spec.dims);
  SyntheticEvaluator evaluator(spec);
  auto strategy = make_strategy(GetParam());
  auto result = run_search(space, evaluator, *strategy, Budget{300, 0.0}, 9);
  ASSERT_TRUE(result);
  ASSERT_TRUE(result->incumbent.has_value());
  std::optional<std::size_t> incumbent;
  for (auto const& e : result->trajectory) {
    bool const expected = e.outcome.status == CandidateStatus::ok &&
                          (!incumbent || improves_on(e.outcome, result->trajectory[*incumbent].outcome));
    EXPECT_EQ(e.became_incumbent, expected) << e.index;
    if (expected) incumbent = e.index;
  }
  EXPECT_EQ(incumbent, result->incumbent);
}

// Every registered strategy, so that a new one is held to the same rules without editing this file.
INSTANTIATE_TEST_SUITE_P(Search, EveryStrategy, ::testing::ValuesIn(search_strategy_names()));

class SlowObjective final : public Objective {
 public:
  Outcome evaluate(Point const& point) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return inner_.evaluate(point);
  }

 private:
  test::BowlObjective inner_{Point{1, 1}};
};

TEST(RunSearch, StopsAtTheWallTimeLimit) {
  GridSpace space(cube(2, 20));
  SlowObjective objective;
  auto strategy = make_random_strategy();
  auto result = run_search(space, objective, *strategy, Budget{400, 0.1}, 1);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->stop_reason, StopReason::wall_time);
  EXPECT_GT(result->trajectory.size(), 3U);
  EXPECT_LT(result->trajectory.size(), 40U);
}

// Proposes the same point forever, or an invalid one.
class StubbornStrategy final : public Strategy {
 public:
  explicit StubbornStrategy(Point point) : point_(std::move(point)) {}
  std::string_view name() const override { return "stubborn"; }
  void start(SearchSpace const& /*space*/, std::uint64_t /*seed*/) override {}
  std::optional<Proposal> propose(SearchHistory const& /*history*/) override {
    return Proposal{point_, {}, {}};
  }
  void observe(Proposal const& /*p*/, Evaluation const& /*e*/, bool fresh) override {
    fresh_.push_back(fresh);
  }
  std::vector<bool> fresh_;

 private:
  Point point_;
};

TEST(RunSearch, RepeatedProposalsAreAnsweredFromTheCache) {
  GridSpace space(cube(2, 4));
  BowlObjective objective({1, 1});
  StubbornStrategy strategy({2, 2});
  auto result = run_search(space, objective, strategy, Budget{10, 0.0}, 1);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->trajectory.size(), 1U);
  EXPECT_EQ(objective.calls, 1);
  EXPECT_EQ(result->stop_reason, StopReason::stalled);
  EXPECT_GT(result->repeated_proposals, 100U);
  ASSERT_GE(strategy.fresh_.size(), 2U);
  EXPECT_TRUE(strategy.fresh_[0]);
  EXPECT_FALSE(strategy.fresh_[1]);
}

TEST(RunSearch, RejectsBadInputsWithMessages) {
  BowlObjective objective({1, 1});
  auto strategy = make_random_strategy();
  auto no_dims = run_search(GridSpace({}), objective, *strategy, Budget{10, 0.0}, 1);
  ASSERT_FALSE(no_dims);
  EXPECT_NE(no_dims.error().message.find("no dimensions"), std::string::npos);
  auto zero = run_search(GridSpace({{"A", 3}, {"B", 0}}), objective, *strategy, Budget{10, 0.0}, 1);
  ASSERT_FALSE(zero);
  EXPECT_NE(zero.error().message.find("'B'"), std::string::npos);
  auto no_budget = run_search(GridSpace(cube(2, 3)), objective, *strategy, Budget{0, 0.0}, 1);
  ASSERT_FALSE(no_budget);
  EXPECT_NE(no_budget.error().message.find("max_evaluations"), std::string::npos);
  StubbornStrategy invalid({5, 0});
  auto out_of_range = run_search(GridSpace(cube(2, 3)), objective, invalid, Budget{10, 0.0}, 1);
  ASSERT_FALSE(out_of_range);
  EXPECT_NE(out_of_range.error().message.find("[5,0]"), std::string::npos);
}

class BrokenObjective final : public Objective {
 public:
  Outcome evaluate(Point const& /*point*/) override { return test::timed({1.0, 2.0}, {}, {1.0}); }
};

TEST(RunSearch, InconsistentOkOutcomeIsAnError) {
  BrokenObjective objective;
  auto strategy = make_exhaustive_strategy();
  auto result = run_search(GridSpace(cube(2, 3)), objective, *strategy, Budget{10, 0.0}, 1);
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message.find("reference_us"), std::string::npos);
}

TEST(RunSearch, StopReasonsHaveNames) {
  EXPECT_EQ(to_string(StopReason::evaluations), "evaluations");
  EXPECT_EQ(to_string(StopReason::stalled), "stalled");
}

}  // namespace strategies_test
}  // namespace kopt
