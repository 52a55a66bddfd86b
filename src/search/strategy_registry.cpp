// The registry of search strategies: the one place to touch when adding a strategy. Each strategy lives
// in src/search/<name>_strategy.cpp behind a make_<name>_strategy() declared in kopt/search.hpp; list it
// here once, with its capabilities as fields, so that no caller has to compare names to decide what a
// strategy can do.
#include <algorithm>

#include "kopt/search.hpp"

namespace kopt {

std::span<SearchStrategy const> search_strategies() {
  static std::vector<SearchStrategy> const strategies{
      {.name = "mcts",
       .aliases = {},
       .description = "Monte Carlo tree search over knob moves (UCT, progressive widening, dead-end pruning)",
       .proposals_ignore_outcomes = false,
       .uses_seed = true,
       .follows_actions = true,
       .learns_from_memory = true,
       .make =
           [](StrategySettings const& settings) {
             return make_mcts_strategy(settings.mcts, settings.memory);
           }},
      {.name = "greedy",
       .aliases = {"hill"},
       .description = "best-improvement hill climbing, restarted from a random point at a local optimum",
       .proposals_ignore_outcomes = false,
       .uses_seed = true,
       .follows_actions = true,
       .learns_from_memory = false,
       .make = [](StrategySettings const&) { return make_hill_climbing_strategy(); }},
      {.name = "random",
       .aliases = {},
       .description = "valid points uniformly at random, without replacement",
       .proposals_ignore_outcomes = true,
       .uses_seed = true,
       .follows_actions = false,
       .learns_from_memory = false,
       .make = [](StrategySettings const&) { return make_random_strategy(); }},
      {.name = "exhaustive",
       .aliases = {},
       .description = "every valid point once, in mixed-radix order",
       .proposals_ignore_outcomes = true,
       .uses_seed = false,
       .follows_actions = false,
       .learns_from_memory = false,
       .make = [](StrategySettings const&) { return make_exhaustive_strategy(); }},
  };
  return strategies;
}

SearchStrategy const* find_search_strategy(std::string_view name) {
  for (SearchStrategy const& strategy : search_strategies()) {
    if (strategy.name == name || std::ranges::find(strategy.aliases, name) != strategy.aliases.end())
      return &strategy;
  }
  return nullptr;
}

std::vector<std::string> search_strategy_names() {
  std::vector<std::string> names;
  names.reserve(search_strategies().size());
  for (SearchStrategy const& strategy : search_strategies()) names.emplace_back(strategy.name);
  return names;
}

std::unique_ptr<Strategy> make_strategy(std::string_view name) {
  SearchStrategy const* strategy = find_search_strategy(name);
  return strategy ? strategy->make(StrategySettings{}) : nullptr;
}

}  // namespace kopt
