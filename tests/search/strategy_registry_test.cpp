#include <gtest/gtest.h>

#include <set>
#include <string>

#include "kopt/search.hpp"
#include "search/search_test_support.hpp"

namespace kopt {
namespace strategy_registry_test {

using test::BowlObjective;
using test::cube;

// An action memory that counts what it is asked and told, to see which strategies use it.
class CountingMemory final : public ActionMemory {
 public:
  ActionStats stats(std::string_view /*action*/) const override {
    ++reads;
    return {};
  }
  void record(std::string_view /*action*/, double /*gain*/) override { ++records; }
  mutable int reads = 0;
  int records = 0;
};

std::vector<Point> proposed_points(SearchResult const& result) {
  std::vector<Point> points;
  for (auto const& e : result.trajectory) points.push_back(e.point);
  return points;
}

TEST(StrategyRegistry, NamesAndAliasesAreUniqueAndFindTheirEntry) {
  std::set<std::string_view> seen;
  for (SearchStrategy const& strategy : search_strategies()) {
    EXPECT_TRUE(seen.insert(strategy.name).second) << strategy.name;
    EXPECT_EQ(find_search_strategy(strategy.name), &strategy);
    for (std::string_view alias : strategy.aliases) {
      EXPECT_TRUE(seen.insert(alias).second) << alias;
      EXPECT_EQ(find_search_strategy(alias), &strategy) << alias;
    }
    EXPECT_FALSE(strategy.description.empty()) << strategy.name;
    ASSERT_NE(strategy.make, nullptr) << strategy.name;
  }
  EXPECT_EQ(find_search_strategy("annealing"), nullptr);
  EXPECT_EQ(make_strategy("annealing"), nullptr);
}

TEST(StrategyRegistry, TheCliChoicesAreTheNamesInRegistryOrder) {
  EXPECT_EQ(search_strategy_names(), (std::vector<std::string>{"mcts", "greedy", "random", "exhaustive"}));
  // The hill climber keeps the name the search module and its benchmarks use as an alias.
  ASSERT_NE(find_search_strategy("hill"), nullptr);
  EXPECT_EQ(find_search_strategy("hill")->name, "greedy");
}

TEST(StrategyRegistry, EachFactoryBuildsTheStrategyItNames) {
  for (SearchStrategy const& strategy : search_strategies()) {
    auto built = strategy.make(StrategySettings{});
    ASSERT_NE(built, nullptr) << strategy.name;
    EXPECT_EQ(built->name(), strategy.name);
    for (std::string_view alias : strategy.aliases) EXPECT_EQ(make_strategy(alias)->name(), strategy.name);
  }
}

// proposals_ignore_outcomes is what lets optimize ask ahead and compile a batch: the points must not
// change when the outcomes do. The others must react to outcomes (else they could be batched too).
TEST(StrategyRegistry, ProposalsIgnoreOutcomesExactlyWhenTheFieldSaysSo) {
  GridSpace space(cube(3, 6));
  for (SearchStrategy const& strategy : search_strategies()) {
    auto run = [&](Point const& optimum) {
      BowlObjective objective(optimum);
      auto built = strategy.make(StrategySettings{});
      auto result = run_search(space, objective, *built, Budget{60, 0.0}, 4);
      EXPECT_TRUE(result) << strategy.name;
      return result ? proposed_points(*result) : std::vector<Point>{};
    };
    bool const same = run({0, 0, 0}) == run({5, 5, 5});
    EXPECT_EQ(same, strategy.proposals_ignore_outcomes) << strategy.name;
  }
}

TEST(StrategyRegistry, OnlyStrategiesThatLearnFromMemoryTouchIt) {
  GridSpace space(cube(3, 6));
  for (SearchStrategy const& strategy : search_strategies()) {
    auto memory = std::make_shared<CountingMemory>();
    auto built = strategy.make(StrategySettings{MctsConfig{}, memory});
    BowlObjective objective({2, 3, 4});
    auto result = run_search(space, objective, *built, Budget{60, 0.0}, 2);
    ASSERT_TRUE(result) << strategy.name;
    EXPECT_EQ(memory->records > 0, strategy.learns_from_memory) << strategy.name;
  }
}

}  // namespace strategy_registry_test
}  // namespace kopt
