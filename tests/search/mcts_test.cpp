#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "kopt/search.hpp"
#include "search/search_test_support.hpp"

namespace kopt {
namespace mcts_test {

using test::BowlObjective;
using test::cube;

Point const kCentre{1, 1, 1, 1, 1, 1};

// One tree only: the forest never widens within these small budgets.
MctsConfig single_tree() {
  MctsConfig config;
  config.roots_k = 1e-6;
  return config;
}

TEST(MctsWidening, AllowedChildrenFollowsTheFormula) {
  MctsConfig plain;
  plain.widening_k = 1.0;
  plain.root_widening_boost = 0.0;
  plain.widening_alpha = 0.5;
  EXPECT_EQ(allowed_children(plain, 1, 0), 1);
  EXPECT_EQ(allowed_children(plain, 2, 0), 2);
  EXPECT_EQ(allowed_children(plain, 4, 0), 2);
  EXPECT_EQ(allowed_children(plain, 5, 0), 3);
  EXPECT_EQ(allowed_children(plain, 0, 3), 1);
  MctsConfig defaults;  // k_depth = 1 * (1 + 2 * 0.5^depth)
  EXPECT_EQ(allowed_children(defaults, 1, 0), 3);
  EXPECT_EQ(allowed_children(defaults, 4, 0), 6);
  EXPECT_EQ(allowed_children(defaults, 4, 1), 4);
  EXPECT_EQ(allowed_children(defaults, 9, 2), 5);
  EXPECT_GT(allowed_children(defaults, 100, 0), allowed_children(defaults, 100, 3));  // wider near the root
}

TEST(MctsValue, BacksUpMeanAndMaxAndScoresByUct) {
  MctsConfig config;  // w = 0.5, c = 0.3
  EXPECT_DOUBLE_EQ(backed_up_value(config, 3.0, 3, 2.0), 0.5 * 1.0 + 0.5 * 2.0);
  EXPECT_DOUBLE_EQ(backed_up_value(config, 0.0, 0, 1.0), 0.5) << "no visit counts as one";
  EXPECT_DOUBLE_EQ(uct_score(config, 1.0, 1, 4), 1.0) << "ln 1 = 0: no exploration bonus";
  EXPECT_NEAR(uct_score(config, 1.0, 9, 4), 1.0 + 0.3 * std::sqrt(std::log(9.0) / 4.0), 1e-12);
  EXPECT_GT(uct_score(config, 1.0, 9, 1), uct_score(config, 1.0, 9, 4)) << "fewer visits, more bonus";
}

TEST(MctsWidening, EveryNodeStaysWithinItsAllowedChildren) {
  GridSpace space(cube(6, 3), {}, kCentre);
  BowlObjective objective({2, 0, 2, 0, 2, 0});
  MctsStrategy strategy(single_tree());
  auto result = run_search(space, objective, strategy, Budget{60, 0.0}, 4);
  ASSERT_TRUE(result);
  EXPECT_EQ(strategy.node_count(), 60U);
  int deepest = 0;
  for (auto const& e : result->trajectory) {
    auto const node = strategy.node(e.point);
    ASSERT_TRUE(node.has_value());
    EXPECT_LE(node->children, allowed_children(MctsConfig{}, node->visits, node->depth))
        << to_string(e.point);
    deepest = std::max(deepest, node->depth);
  }
  EXPECT_GE(deepest, 3);  // the widening forces depth, not a flat neighbourhood scan
  auto const root = strategy.node(kCentre);
  ASSERT_TRUE(root.has_value());
  EXPECT_EQ(root->depth, 0);
  EXPECT_EQ(root->visits, 60);  // every evaluation backs up through the only root
}

TEST(MctsWidening, WithoutWideningTheRootExpandsEveryActionFirst) {
  GridSpace space(cube(6, 3), {}, kCentre);
  auto run = [&](MctsConfig config) {
    BowlObjective objective({2, 0, 2, 0, 2, 0});
    MctsStrategy strategy(config);
    auto result = run_search(space, objective, strategy, Budget{13, 0.0}, 4);
    EXPECT_TRUE(result);
    return strategy.node(kCentre)->children;
  };
  MctsConfig wide = single_tree();
  wide.widening_k = 1000.0;
  EXPECT_EQ(run(wide), 12);
  EXPECT_LT(run(single_tree()), 12);
}

// Fails with `status` everywhere but at the start point.
class FailingAround final : public Objective {
 public:
  explicit FailingAround(CandidateStatus status) : status_(status) {}
  Outcome evaluate(Point const& point) override {
    if (point == kCentre) return test::timed({100.0}, {0.0}, {100.0});
    Outcome failed;
    failed.status = status_;
    return failed;
  }

 private:
  CandidateStatus status_;
};

TEST(MctsDeadEnds, ANodeStopsExpandingAfterItsLastExpansionsAllFailed) {
  for (int window : {3, 5}) {
    GridSpace space(cube(6, 3), {}, kCentre);
    FailingAround objective(CandidateStatus::compile_error);
    MctsConfig config = single_tree();
    config.dead_end_window = window;
    config.root_widening_boost = 10.0;  // the root would otherwise widen to all 12 actions
    MctsStrategy strategy(config);
    auto result = run_search(space, objective, strategy, Budget{40, 0.0}, 2);
    ASSERT_TRUE(result);
    auto const root = strategy.node(kCentre);
    ASSERT_TRUE(root.has_value());
    EXPECT_TRUE(root->dead_end);
    EXPECT_EQ(root->expansions, window);
    EXPECT_EQ(root->children, window);
  }
}

TEST(MctsDeadEnds, SuccessfulExpansionsKeepANodeAlive) {
  GridSpace space(cube(6, 3), {}, kCentre);
  BowlObjective objective({1, 1, 1, 1, 1, 1});
  MctsConfig config = single_tree();
  config.root_widening_boost = 10.0;
  MctsStrategy strategy(config);
  auto result = run_search(space, objective, strategy, Budget{13, 0.0}, 2);
  ASSERT_TRUE(result);
  EXPECT_FALSE(strategy.node(kCentre)->dead_end);
  EXPECT_EQ(strategy.node(kCentre)->expansions, 12);
}

TEST(MctsMemory, APriorGainDecidesWhichActionIsExpandedFirst) {
  for (std::string const favourite : {"D3:+1", "D0:-1", "D5:-1"}) {
    auto memory = std::make_shared<InMemoryActionMemory>();
    for (int i = 0; i < 10; ++i) memory->record(favourite, 0.5);
    memory->record("D2:+1", 0.1);
    GridSpace space(cube(6, 3), {}, kCentre);
    BowlObjective objective({1, 1, 1, 1, 1, 1});
    MctsStrategy strategy(single_tree(), memory);
    auto result = run_search(space, objective, strategy, Budget{3, 0.0}, 8);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->trajectory[1].action, favourite);
    EXPECT_EQ(result->trajectory[2].action, "D2:+1");
  }
}

TEST(MctsMemory, LearnsGainsPerActionDuringTheSearch) {
  auto memory = std::make_shared<InMemoryActionMemory>();
  GridSpace space(cube(6, 3), {}, kCentre);
  BowlObjective objective({2, 2, 2, 2, 2, 2});  // every "+1" from the centre gains, every "-1" loses
  MctsStrategy strategy(single_tree(), memory);
  auto result = run_search(space, objective, strategy, Budget{30, 0.0}, 8);
  ASSERT_TRUE(result);
  int plus = 0;
  int minus = 0;
  for (int d = 0; d < 6; ++d) {
    auto const up = memory->stats("D" + std::to_string(d) + ":+1");
    auto const down = memory->stats("D" + std::to_string(d) + ":-1");
    plus += up.tries;
    minus += down.tries;
    if (up.tries > 0) {
      EXPECT_GT(up.mean_gain, 0.0);
    }
    if (down.tries > 0) {
      EXPECT_LT(down.mean_gain, 0.0);
    }
  }
  EXPECT_EQ(plus + minus, 29);  // every evaluation but the root came through an action
  EXPECT_GT(plus, minus);       // the prior steers expansion towards the gaining moves
  EXPECT_EQ(&strategy.memory(), memory.get());
}

TEST(InMemoryActionMemory, KeepsARunningMean) {
  InMemoryActionMemory memory;
  EXPECT_EQ(memory.stats("A:+1").tries, 0);
  memory.record("A:+1", 1.0);
  memory.record("A:+1", 0.0);
  memory.record("A:+1", 0.5);
  EXPECT_EQ(memory.stats("A:+1").tries, 3);
  EXPECT_NEAR(memory.stats("A:+1").mean_gain, 0.5, 1e-12);
  EXPECT_EQ(memory.stats("A:-1").tries, 0);
}

TEST(MctsForest, ExhaustsASmallSpaceWithoutDuplicates) {
  GridSpace space(cube(3, 4), [](Point const& p) { return p[0] != 2; });
  BowlObjective objective({3, 3, 3});
  MctsStrategy strategy;
  auto result = run_search(space, objective, strategy, Budget{1000, 0.0}, 6);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->stop_reason, StopReason::exhausted);
  EXPECT_EQ(result->trajectory.size(), 48U);
  EXPECT_EQ(test::distinct_points(*result).size(), 48U);
}

}  // namespace mcts_test
}  // namespace kopt
