// Reading runs back: load_optimize_run (for --resume), the `kopt runs` summary, `kopt export`.
#include <fmt/format.h>

#include <fstream>

#include "kopt/report.hpp"
#include "kopt/store.hpp"
#include "run_log.hpp"

namespace kopt {

Result<OptimizeRunInfo> load_optimize_run(Store& store, RunId run) {
  auto runs = store.list_runs();
  if (!runs) return runs.error();
  for (StoredRun const& stored : *runs) {
    if (stored.id != run) continue;
    auto options = optimize_detail::options_from_json(stored.run.options, run);
    if (!options) return options.error();
    options->seed = stored.run.seed;
    auto const& budget = stored.run.budget;
    if (budget.contains("evaluations") && budget["evaluations"].is_number_unsigned())
      options->max_evaluations = budget["evaluations"].get<std::size_t>();
    if (budget.contains("seconds") && budget["seconds"].is_number())
      options->max_wall_seconds = budget["seconds"].get<double>();
    OptimizeRunInfo info;
    info.id = stored.id;
    info.status = std::string(to_string(stored.status));
    info.task_name = stored.run.task_name;
    info.task_dir = stored.run.task_dir;
    info.source = stored.run.options["source"].get<std::string>();
    info.options = std::move(*options);
    return info;
  }
  return make_error(ErrorCode::not_found,
                    fmt::format("store {}: no run {}", store.path().string(), run.value()));
}

Result<std::vector<RunSummary>> summarise_runs(Store& store) {
  auto runs = store.list_runs();
  if (!runs) return runs.error();
  std::vector<RunSummary> summaries;
  for (StoredRun const& stored : *runs) {
    RunSummary summary;
    summary.id = stored.id;
    summary.task_name = stored.run.task_name;
    summary.task_dir = stored.run.task_dir;
    summary.started_at = stored.started_at;
    summary.finished_at = stored.finished_at;
    summary.status = std::string(to_string(stored.status));
    summary.strategy = stored.run.options.is_object() ? stored.run.options.value("strategy", "") : "";
    summary.seed = stored.run.seed;
    auto history = store.load_run(stored.id);
    if (!history) return history.error();
    summary.candidates = history->candidates.size();
    summary.evaluations = history->evaluations.size();
    auto screen = store.best_candidate(stored.id, "screen");
    if (!screen) return screen.error();
    if (*screen) summary.best_screen_speedup = (*screen)->evaluation.evaluation.geomean_speedup;
    auto confirm = store.best_candidate(stored.id, "confirm");
    if (!confirm) return confirm.error();
    if (*confirm) summary.best_confirmed_speedup = (*confirm)->evaluation.evaluation.geomean_speedup;
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

namespace {

nlohmann::json optional_number(std::optional<double> value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::string ratio_or_dash(std::optional<double> value) {
  return value ? format_ratio(*value) : std::string("-");
}

}  // namespace

nlohmann::json runs_to_json(std::vector<RunSummary> const& runs) {
  nlohmann::json list = nlohmann::json::array();
  for (RunSummary const& run : runs) {
    list.push_back(
        {{"id", run.id.value()},
         {"task", run.task_name},
         {"task_dir", run.task_dir},
         {"started_at", run.started_at},
         {"finished_at", run.finished_at ? nlohmann::json(*run.finished_at) : nlohmann::json(nullptr)},
         {"status", run.status},
         {"strategy", run.strategy},
         {"seed", run.seed},
         {"candidates", run.candidates},
         {"evaluations", run.evaluations},
         {"best_screen_speedup", optional_number(run.best_screen_speedup)},
         {"best_confirmed_speedup", optional_number(run.best_confirmed_speedup)}});
  }
  return {{"schema", "kopt.runs/1"}, {"runs", list}};
}

std::string render_runs(std::vector<RunSummary> const& runs) {
  if (runs.empty()) return "no runs in this store\n";
  std::string text =
      fmt::format("{:>4}  {:<16}  {:<11}  {:<10}  {:>10}  {:>11}  {:>9}  {:>9}  {}\n", "id", "task", "status",
                  "strategy", "candidates", "evaluations", "best", "confirmed", "started");
  for (RunSummary const& run : runs) {
    text += fmt::format("{:>4}  {:<16}  {:<11}  {:<10}  {:>10}  {:>11}  {:>9}  {:>9}  {}\n", run.id.value(),
                        run.task_name, run.status, run.strategy, run.candidates, run.evaluations,
                        ratio_or_dash(run.best_screen_speedup), ratio_or_dash(run.best_confirmed_speedup),
                        run.started_at);
  }
  return text;
}

Result<ExportedCandidate> export_best(Store& store, RunId run, std::filesystem::path const& out) {
  auto loaded = load_optimize_run(store, run);
  if (!loaded) return loaded.error();
  ExportedCandidate exported;
  auto best = store.best_verified_candidate(run);
  if (!best) return best.error();
  if (!*best) {
    return make_error(
        ErrorCode::not_found,
        fmt::format("run {}: no candidate passed verification (nothing to export)", run.value()));
  }
  BestCandidate const& found = **best;
  exported.candidate = found.candidate.id;
  exported.tier = found.evaluation.evaluation.tier;
  exported.knobs = found.candidate.candidate.knobs;
  exported.geomean_speedup = found.evaluation.evaluation.geomean_speedup.value_or(0.0);
  exported.source = found.candidate.candidate.source;
  std::ofstream file(out, std::ios::binary);
  file << exported.source;
  file.close();
  if (!file) return make_error(ErrorCode::io_error, fmt::format("-o: cannot write '{}'", out.string()));
  return exported;
}

}  // namespace kopt
