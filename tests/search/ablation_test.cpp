// The key behaviour: on rugged landscapes, at equal budget, MCTS beats random search.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "kopt/search.hpp"

namespace kopt {
namespace ablation_test {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  auto const n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Median over seeds of the best exact speedup found with 5% of the space as budget.
double median_best(SyntheticSpec spec, std::string_view strategy_name, std::size_t concurrent = 1) {
  GridSpace space(spec.dims);
  SyntheticEvaluator exact(spec);
  auto const budget = static_cast<std::size_t>(std::ceil(0.05 * static_cast<double>(point_count(spec.dims))));
  std::vector<double> bests;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    spec.measurement_noise = 0.02;
    spec.noise_seed = seed;
    SyntheticEvaluator evaluator(spec);
    auto strategy = make_strategy(strategy_name);
    auto result = run_search(space, evaluator, *strategy, Budget{budget, 0.0, concurrent}, seed);
    EXPECT_TRUE(result);
    double best = 0.0;
    for (auto const& e : result->trajectory)
      best = std::max(best, geomean_speedup(exact.exact(e.point)).value_or(0.0));
    bests.push_back(best);
  }
  return median(bests);
}

TEST(Ablation, MctsMedianBestBeatsRandomOnRuggedLandscapes) {
  auto const specs = rugged_landscapes();
  ASSERT_GE(specs.size(), 2U);
  for (auto const& spec : specs) {
    double const mcts = median_best(spec, "mcts");
    double const random = median_best(spec, "random");
    EXPECT_GT(mcts, random * 1.1) << "landscape " << spec.landscape_seed << ": mcts " << mcts << " random "
                                  << random;
  }
}

// Eight evaluations in flight (eight GPUs): MCTS proposes eight points before it learns any of their
// outcomes, with virtual loss spreading them over the tree. It keeps its edge over random search.
TEST(Ablation, MctsWithEightInFlightStillBeatsRandomOnRuggedLandscapes) {
  for (auto const& spec : rugged_landscapes()) {
    double const one = median_best(spec, "mcts");
    double const eight = median_best(spec, "mcts", 8);
    double const random = median_best(spec, "random");
    EXPECT_GT(eight, random * 1.1) << "landscape " << spec.landscape_seed << ": mcts x8 " << eight
                                   << " random " << random;
    std::cout << "landscape " << spec.landscape_seed << ": mcts " << one << ", mcts with 8 in flight "
              << eight << ", random " << random << "\n";
  }
}

}  // namespace ablation_test
}  // namespace kopt
