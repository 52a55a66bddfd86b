// `kopt bench`: the benchmark suite (suites/, docs/suites.md) run end to end. For every task: the
// built-in proposer tunes the strategy library's kernels, and the best is confirmed against the reference and
// the vendor baseline; a table per task and size, geomeans per scenario and overall, the goals
// checked, and JSON, Markdown and SVG renderings. docs/bench.md.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kopt/propose.hpp"
#include "kopt/result.hpp"

namespace kopt {

// A task of the suite: its folder and the name reports use ("algebra/gemv-bf16").
struct SuiteTask {
  std::filesystem::path dir;
  std::string id;        // relative to the suite root, "/"-separated
  std::string scenario;  // the first folder ("algebra"); the root's name when the task is at the top
};

// Every folder holding a task.toml under `roots` (a root may itself be a task folder), sorted by id.
// `filters`: keep a task when any filter is a substring of its id (empty: keep all).
Result<std::vector<SuiteTask>> discover_suite_tasks(std::vector<std::filesystem::path> const& roots,
                                                    std::vector<std::string> const& filters);

// One timed size case of one task.
struct BenchRow {
  std::string task;  // id
  std::string scenario;
  std::string family;
  std::string size;
  std::string status;    // ok, or the best candidate's status, or no_strategy / error
  std::string strategy;  // the winning strategy
  std::optional<std::int64_t> run;
  std::optional<double> reference_us;
  std::optional<double> best_us;
  std::optional<double> best_spread;  // relative IQR of the best's samples (IQR / median)
  std::optional<double> baseline_us;
  std::optional<double> speedup;     // reference / best
  std::optional<double> vs_vendor;   // baseline / best (>= 1: kopt is as fast as the vendor or faster)
  std::optional<double> pct_of_sol;  // % of the speed-of-light bound (measured peaks when calibrated)
  std::optional<double> achieved_gbps;
  bool memory_bound = false;  // the work model's memory time exceeds its compute time
  bool largest = false;       // the task's largest timed size case
  std::string note;
};

struct BenchGoal {
  std::string name;
  bool met = false;
  std::string detail;
};

struct BenchSummary {
  std::vector<BenchRow> rows;
  std::vector<std::pair<std::string, double>> geomean_by_scenario;  // speedup over the reference
  std::optional<double> geomean_overall;
  std::vector<BenchGoal> goals;
  std::string device;
  std::string started_at;
  double elapsed_seconds = 0.0;
};

struct BenchOptions {
  ProposeOptions propose;  // budget, search, seed ... per task
  bool search = true;      // false: the reference and baseline only (no tuning)
};

struct BenchProgress {
  std::size_t task_index = 0;  // 1-based
  std::size_t task_count = 0;
  std::string task;
  std::string message;
  BenchSummary const* partial = nullptr;  // after each finished task: the rows so far, summarised
};

// Runs every task: propose_and_tune with options.propose, then the rows of its confirmed best; a task no
// strategy applies to gets its reference and baseline timed alone (status no_strategy). A failing task is a
// row with its error; the bench goes on.
Result<BenchSummary> run_suite_bench(std::vector<SuiteTask> const& tasks, StrategyLibrary const& library,
                                     BenchOptions const& options, CandidateEvaluator& evaluator, Store& store,
                                     std::function<void(BenchProgress const&)> const& progress = {});

// Geomeans and goals from rows (run_suite_bench calls it; exposed for tests and re-rendering).
void summarise_bench(BenchSummary& summary);

nlohmann::json bench_to_json(BenchSummary const& summary);  // schema kopt.bench/1
// A kopt.bench/1 document read back (rows, device, start, elapsed); geomeans and goals are recomputed.
// Errors name `origin` and the field.
Result<BenchSummary> bench_from_json(nlohmann::json const& json, std::string const& origin);
// Several benches (e.g. parts of a suite run on different GPUs or in separate calls) as one: rows in order,
// devices and starts joined, elapsed times added, goals recomputed over all rows. A task that appears in
// several parts keeps the rows of the last one (a re-run after a fix).
BenchSummary merge_benches(std::vector<BenchSummary> const& parts);
std::string render_bench_text(BenchSummary const& summary);  // the terminal table
std::string render_bench_markdown(BenchSummary const& summary);
std::string render_bench_svg(BenchSummary const& summary);  // speedup and vendor ratio per task, log scale

}  // namespace kopt
