// kopt-bench-search: strategy ablation on the rugged synthetic landscapes (CPU only).
//
// For every landscape of rugged_landscapes(): the exhaustive best (noise-free), then each strategy
// run at an equal budget (a fraction of the space) over many seeds. Prints, per strategy, the
// median and worst best speedup found as a fraction of the exhaustive best, and how many seeds
// reached >= 95% of it. docs/search.md records the numbers with the command.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "kopt/search.hpp"
#include "mcts_options.hpp"

namespace {

struct Variant {
  std::string name;
  std::function<std::unique_ptr<kopt::Strategy>()> make;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  auto const n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Compares search strategies on rugged synthetic landscapes (CPU only)."};
  int seeds = 20;
  double fraction = 0.05;
  double noise = 0.0;
  app.add_option("--seeds", seeds, "seeds per strategy")->check(CLI::Range(1, 10000));
  app.add_option("--fraction", fraction, "budget as a fraction of the space")->check(CLI::Range(0.0001, 1.0));
  app.add_option("--noise", noise, "relative measurement noise of the evaluator")
      ->check(CLI::Range(0.0, 0.5));
  kopt::MctsConfig base;
  kopt::bench::add_mcts_options(app, base);
  CLI11_PARSE(app, argc, argv);

  kopt::MctsConfig no_prior = base;
  no_prior.prior_weight = 0.0;
  kopt::MctsConfig no_widening = base;  // every action of a node may be expanded at once
  no_widening.widening_k = 1000.0;
  kopt::MctsConfig no_dead_ends = base;
  no_dead_ends.dead_end_window = 1000000;
  kopt::MctsConfig mean_backup = base;
  mean_backup.max_backup_weight = 0.0;
  std::vector<Variant> variants = {
      {"random", [] { return kopt::make_random_strategy(); }},
      {"hill", [] { return kopt::make_hill_climbing_strategy(); }},
      {"mcts", [&] { return kopt::make_mcts_strategy(base); }},
      {"mcts-no-prior", [&] { return kopt::make_mcts_strategy(no_prior); }},
      {"mcts-no-widening", [&] { return kopt::make_mcts_strategy(no_widening); }},
      {"mcts-no-dead-ends", [&] { return kopt::make_mcts_strategy(no_dead_ends); }},
      {"mcts-mean-backup", [&] { return kopt::make_mcts_strategy(mean_backup); }},
  };

  fmt::print("strategy ablation: {} seeds, budget {:.1f}% of the space, measurement noise {:.1f}%\n", seeds,
             100.0 * fraction, 100.0 * noise);
  for (auto spec : kopt::rugged_landscapes()) {
    kopt::GridSpace space(spec.dims);
    kopt::SyntheticEvaluator exact(spec);
    auto const total = kopt::point_count(spec.dims);
    double best = 0.0;
    std::size_t failing = 0;
    for (std::uint64_t i = 0; i < total; ++i) {
      auto const speedup = kopt::geomean_speedup(exact.exact(kopt::point_at(spec.dims, i)));
      if (speedup) best = std::max(best, *speedup);
      if (!speedup) ++failing;
    }
    auto const budget = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(total)));
    fmt::print("\nlandscape seed {}: {} dims, {} points ({} failing), budget {}, exhaustive best {:.3f}x\n",
               spec.landscape_seed, spec.dims.size(), total, failing, budget, best);
    fmt::print("  {:<18} {:>14} {:>14} {:>14}\n", "strategy", "median best", "worst best", ">=95% seeds");
    for (auto const& variant : variants) {
      std::vector<double> fractions;
      int reached = 0;
      for (int seed = 1; seed <= seeds; ++seed) {
        spec.measurement_noise = noise;
        spec.noise_seed = static_cast<std::uint64_t>(seed);
        kopt::SyntheticEvaluator evaluator(spec);
        auto strategy = variant.make();
        auto result = kopt::run_search(space, evaluator, *strategy, kopt::Budget{budget, 0.0},
                                       static_cast<std::uint64_t>(seed));
        if (!result) {
          fmt::print(stderr, "{}: {}\n", variant.name, result.error().message);
          return 4;
        }
        // Judged on the exact (noise-free) speedup of the best point the search found.
        double found = 0.0;
        for (auto const& e : result->trajectory) {
          if (auto s = kopt::geomean_speedup(exact.exact(e.point))) found = std::max(found, *s);
        }
        fractions.push_back(found / best);
        if (found >= 0.95 * best) ++reached;
      }
      fmt::print("  {:<18} {:>13.1f}% {:>13.1f}% {:>11}/{}\n", variant.name, 100.0 * median(fractions),
                 100.0 * *std::min_element(fractions.begin(), fractions.end()), reached, seeds);
    }
  }
  return 0;
}
