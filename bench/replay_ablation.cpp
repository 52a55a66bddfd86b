// kopt-bench-replay: strategy ablation on tuning spaces measured on a GPU.
//
// Input: a store holding exhaustive `kopt optimize` runs (every valid configuration of a real tuning
// space evaluated on the screen tier, e.g. by scripts/gpu.sh). For each run: the exhaustive best (the
// highest screen geomean speedup), then `kopt optimize` with each strategy at an equal budget (a
// fraction of the valid configurations) over many seeds, every candidate answered from the recording
// by RecordedRunEvaluator (so the search code is exactly the production path, and each seed costs no
// GPU time). Prints, per strategy, the median and worst best-found speedup as a fraction of the
// exhaustive best and how many seeds reached >= 95% of it. docs/benchmarks.md records the numbers.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "kopt/optimize.hpp"
#include "kopt/runs.hpp"
#include "kopt/search.hpp"
#include "kopt/store.hpp"
#include "kopt/task.hpp"
#include "mcts_options.hpp"

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  auto const n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The highest ok screen geomean of a run.
kopt::Result<double> best_speedup(kopt::Store& store, kopt::RunId run) {
  auto best = store.best_candidate(run, std::string_view("screen"));
  if (!best) return best.error();
  if (!*best || !(*best)->evaluation.evaluation.geomean_speedup) return 0.0;
  return *(*best)->evaluation.evaluation.geomean_speedup;
}

struct StrategyResult {
  std::string strategy;
  double fraction = 0.0;
  std::size_t budget = 0;
  std::vector<double> found;  // best found / exhaustive best, per seed
  int reached = 0;            // seeds with found >= 95%
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Compares search strategies on tuning spaces recorded by exhaustive kopt optimize runs (no GPU "
      "needed: every candidate is answered from the recording)."};
  std::string store_path;
  std::vector<std::int64_t> run_ids;
  std::vector<double> fractions = {0.05, 0.10};
  std::vector<std::string> strategies = {"mcts", "greedy", "random"};
  int seeds = 20;
  std::string json_path;
  app.add_option("--store", store_path, "store with the exhaustive runs")->required();
  app.add_option("--run", run_ids, "exhaustive run ids (default: every finished exhaustive run)");
  app.add_option("--fraction", fractions, "budgets as fractions of the valid configurations")
      ->check(CLI::Range(0.001, 1.0));
  app.add_option("--search", strategies, "search strategies to compare")
      ->check(CLI::IsMember(kopt::search_strategy_names()));
  app.add_option("--seeds", seeds, "seeds per strategy and budget")->check(CLI::Range(1, 10000));
  app.add_option("--json", json_path, "also write the results as JSON to this file");
  kopt::MctsConfig mcts;
  kopt::bench::add_mcts_options(app, mcts);
  CLI11_PARSE(app, argc, argv);

  auto store = kopt::Store::open(store_path);
  if (!store) {
    fmt::print(stderr, "{}\n", store.error().message);
    return 2;
  }
  if (run_ids.empty()) {
    auto runs = kopt::summarise_runs(*store);
    if (!runs) {
      fmt::print(stderr, "{}\n", runs.error().message);
      return 2;
    }
    for (auto const& run : *runs) {
      if (run.strategy == "exhaustive" && run.status == "finished") run_ids.push_back(run.id.value());
    }
  }
  if (run_ids.empty()) {
    fmt::print(stderr, "{}: no finished exhaustive runs\n", store_path);
    return 2;
  }
  auto const scratch =
      std::filesystem::temp_directory_path() /
      fmt::format("kopt-bench-replay-{}", std::chrono::steady_clock::now().time_since_epoch().count());
  std::filesystem::create_directories(scratch);
  nlohmann::json report = {{"schema", "kopt.bench_replay/1"},
                           {"store", store_path},
                           {"seeds", seeds},
                           {"spaces", nlohmann::json::array()}};
  int seeds_run = 0;
  for (std::int64_t const id : run_ids) {
    kopt::RunId const run{id};
    auto info = kopt::load_optimize_run(*store, run);
    if (!info) {
      fmt::print(stderr, "{}\n", info.error().message);
      return 2;
    }
    auto task = kopt::load_task(info->task_dir);
    if (!task) {
      fmt::print(stderr, "run {}: {}\n", id, task.error().message);
      return 2;
    }
    auto replay = kopt::RecordedRunEvaluator::create(*store, run);
    auto exhaustive_best = best_speedup(*store, run);
    if (!replay || !exhaustive_best) {
      fmt::print(stderr, "run {}: {}\n", id,
                 !replay ? replay.error().message : exhaustive_best.error().message);
      return 2;
    }
    std::size_t const space = (*replay)->configurations();
    fmt::print("\n{} ({}): {} configurations recorded on {}, exhaustive best {:.3f}x\n", task->name,
               info->options.source_path.filename().string(), space, (*replay)->target().device_name,
               *exhaustive_best);
    fmt::print("  {:<8} {:>7} {:>7} {:>13} {:>13} {:>12}\n", "strategy", "budget", "evals", "median best",
               "worst best", ">=95% seeds");
    nlohmann::json space_json = {{"run", id},
                                 {"task", task->name},
                                 {"source", info->options.source_path.filename().string()},
                                 {"configurations", space},
                                 {"exhaustive_best", *exhaustive_best},
                                 {"results", nlohmann::json::array()}};
    for (double const fraction : fractions) {
      auto const budget = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(space)));
      for (std::string const& strategy : strategies) {
        StrategyResult result{strategy, fraction, budget, {}, 0};
        for (int seed = 1; seed <= seeds; ++seed) {
          auto const path = scratch / fmt::format("{}-{}-{}-{}.db", id, strategy, budget, seed);
          auto scratch_store = kopt::Store::open(path);
          if (!scratch_store) {
            fmt::print(stderr, "{}\n", scratch_store.error().message);
            return 4;
          }
          kopt::OptimizeOptions options = info->options;
          options.strategy = strategy;
          options.max_evaluations = budget;
          options.max_wall_seconds = 0.0;
          options.seed = static_cast<std::uint64_t>(seed);
          options.confirm = false;
          options.search_memory = false;  // seeds are independent repetitions
          options.mcts = mcts;
          auto searched = kopt::optimize(*task, info->source, options, **replay, *scratch_store);
          if (!searched) {
            fmt::print(stderr, "run {} {} seed {}: {}\n", id, strategy, seed, searched.error().message);
            return 4;
          }
          auto found = best_speedup(*scratch_store, searched->run);
          if (!found) {
            fmt::print(stderr, "{}\n", found.error().message);
            return 4;
          }
          double const share = *exhaustive_best > 0.0 ? *found / *exhaustive_best : 0.0;
          if (*found == 0.0) {  // nothing ok: say what the search saw
            auto history = scratch_store->load_run(searched->run);
            std::string seen;
            if (history) {
              for (auto const& e : history->evaluations)
                seen += fmt::format(" {}[{}]", kopt::to_string(e.evaluation.status), e.evaluation.tier);
            }
            fmt::print(stderr, "run {} {} seed {}: no ok screen evaluation; {} points:{}\n", id, strategy,
                       seed, searched->points, seen);
          }
          result.found.push_back(share);
          if (share >= 0.95) ++result.reached;
          ++seeds_run;
          std::filesystem::remove(path);
          std::filesystem::remove(path.string() + "-wal");
          std::filesystem::remove(path.string() + "-shm");
        }
        double const worst = *std::min_element(result.found.begin(), result.found.end());
        fmt::print("  {:<8} {:>6.0f}% {:>7} {:>12.1f}% {:>12.1f}% {:>9}/{}\n", strategy, 100.0 * fraction,
                   budget, 100.0 * median(result.found), 100.0 * worst, result.reached, seeds);
        space_json["results"].push_back({{"strategy", strategy},
                                         {"fraction", fraction},
                                         {"budget", budget},
                                         {"median_share", median(result.found)},
                                         {"worst_share", worst},
                                         {"seeds_reaching_95", result.reached},
                                         {"shares", result.found}});
      }
    }
    report["spaces"].push_back(std::move(space_json));
  }
  std::filesystem::remove_all(scratch);
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << report.dump(2) << "\n";
    if (!out) {
      fmt::print(stderr, "{}: cannot write\n", json_path);
      return 2;
    }
  }
  fmt::print("\n{} searches replayed\n", seeds_run);
  return 0;
}
