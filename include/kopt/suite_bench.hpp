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
#include <string_view>
#include <vector>

#include "kopt/analysis.hpp"
#include "kopt/propose.hpp"
#include "kopt/result.hpp"

namespace kopt {

// A task of the suite: its folder and the name reports use ("algebra/gemv-bf16").
struct SuiteTask {
  std::filesystem::path dir;
  std::string id;        // relative to the suite root, "/"-separated
  std::string scenario;  // the first folder ("algebra"); the root's name when the task is at the top
  // A PyTorch problem (`kopt bench --torch`) that could not be imported: why (the task is an import_error
  // row, `dir` is the problem file). Empty for every task that has a folder.
  std::string import_error;
};

// Every folder holding a task.toml under `roots` (a root may itself be a task folder), sorted by id.
// `filters`: keep a task when any filter is a substring of its id (empty: keep all).
Result<std::vector<SuiteTask>> discover_suite_tasks(std::vector<std::filesystem::path> const& roots,
                                                    std::vector<std::string> const& filters);

// A part of a suite, for running it on several GPUs at once: shard `index` (0-based) of `count` takes every
// count-th task of the sorted list, starting at `index`, so the shards together cover each task once.
struct BenchShard {
  std::size_t index = 0;
  std::size_t count = 1;
};
// "I/N" with 0 <= I < N; error invalid_argument naming --shard and the expected form.
Result<BenchShard> parse_bench_shard(std::string_view text);
std::vector<SuiteTask> shard_tasks(std::vector<SuiteTask> tasks, BenchShard shard);

// What Nsight Compute says about one kernel of a row that misses a goal (`kopt bench --profile-gaps`): the
// classifier's verdict and the speed-of-light numbers, for kopt's kernel and for the vendor library's.
struct BenchEvidence {
  std::string subject;  // "kopt" or "vendor"
  std::string status;   // "ok", else why there is no profile (the profiler's error or the kernel's status)
  std::string message;
  std::string main_kernel;  // the longest kernel of the call
  std::size_t kernels = 0;  // kernels launched by one call
  std::string bottleneck;   // to_string(BottleneckClass), with the memory level when known
  std::string summary;      // the classifier's sentence, with its numbers
  MetricHeadline headline;
  std::vector<std::string> findings;  // "tool: explanation", most severe first (at most 4)
};

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
  std::vector<BenchEvidence> evidence;  // --profile-gaps: kopt's kernel then the vendor's, on a missed goal
  // Why a person should look at this row before believing it, "kind: reason" ("degenerate: ...",
  // "suspicious: ..."); PyTorch problems only. A flagged problem is never counted as faster (fast_p).
  std::vector<std::string> flags;
};

// The goals a row misses (only the largest size case is held to them): the DRAM-bandwidth goal
// (memory-bound rows) and the vendor-ratio goal of the task's family (0 when the family has none).
double vendor_goal(std::string_view family);
bool misses_bandwidth_goal(BenchRow const& row);
bool misses_vendor_goal(BenchRow const& row);

struct BenchGoal {
  std::string name;
  bool met = false;
  std::string detail;
};

// A bench of PyTorch problems (`kopt bench --torch`, docs/bench.md "PyTorch problems"): what the table's
// header says about the run. In its rows the reference is PyTorch eager (reference_us, speedup) and the
// baseline is torch.compile (baseline_us, vs_vendor).
struct TorchBenchHeader {
  std::string corpus;         // the folders or files given, as given
  std::string corpus_commit;  // the git commit of the corpus's work tree ("-" outside git)
  std::string precision;      // "fp32" or "bf16"
  std::string torch_version;  // from the imported tasks' torch_abi.json ("-" when none says)
  std::string compile_mode = "default";
};

// fast_p at one threshold p: how many problems kopt's kernel verified on every size case, is not flagged,
// and is more than p times as fast as PyTorch eager (over_eager) or torch.compile (over_compile) at the
// `problem` size case. Fractions are over every problem attempted.
struct TorchFastP {
  double p = 0.0;
  std::size_t over_eager = 0;
  std::size_t over_compile = 0;
};

// The KernelBench-style metrics of a bench of PyTorch problems, at the `problem` size case, from the
// confirm tier's medians. torch_bench_metrics computes them from rows alone.
struct TorchBenchMetrics {
  std::size_t problems = 0;         // attempted (every distinct task of the rows)
  std::size_t imported = 0;         // not import_error
  std::size_t correct = 0;          // every row of the problem ok: kopt's kernel verified on every size case
  std::size_t no_strategy = 0;      // no strategy of the library applies
  std::size_t failed = 0;           // import_error, error, or a kernel that did not verify
  std::size_t flagged = 0;          // correct but degenerate or suspicious: shown, never counted as faster
  std::size_t compile_missing = 0;  // timed against eager, but torch.compile has no timing (it failed)
  std::vector<TorchFastP> fast;     // p = 0, 0.5, 1, 1.5, 2
  std::optional<double> geomean_vs_eager;  // over correct, unflagged problems
  std::size_t geomean_eager_count = 0;
  std::optional<double> geomean_vs_compile;  // over those of them with a torch.compile timing
  std::size_t geomean_compile_count = 0;
};

// The thresholds of fast_p, and the speedup over eager above which a row is flagged "suspicious".
inline constexpr double kTorchFastThresholds[] = {0.0, 0.5, 1.0, 1.5, 2.0};
inline constexpr double kSuspiciousSpeedup = 1000.0;

// The row a PyTorch problem is judged on: its `problem` size case, else its first row.
std::vector<BenchRow const*> torch_problem_rows(std::vector<BenchRow> const& rows);
// Whether a row is flagged: it carries a flag, or kopt's kernel is more than kSuspiciousSpeedup times as fast
// as eager.
bool torch_row_flagged(BenchRow const& row);
TorchBenchMetrics torch_bench_metrics(std::vector<BenchRow> const& rows);

struct BenchSummary {
  std::vector<BenchRow> rows;
  std::vector<std::pair<std::string, double>> geomean_by_scenario;  // speedup over the reference
  std::optional<double> geomean_overall;
  std::vector<BenchGoal> goals;
  std::string device;
  std::string started_at;
  double elapsed_seconds = 0.0;
  std::optional<TorchBenchHeader> torch;  // set for a bench of PyTorch problems (then no goals)
  TorchBenchMetrics torch_metrics;        // summarise_bench's, when `torch` is set
};

struct BenchOptions {
  ProposeOptions propose;  // budget, search, seed ... per task
  bool search = true;      // false: the reference and baseline only (no tuning)
  // Profile kopt's kernel (both stages) and the vendor baseline (stage 1) under Nsight Compute on the
  // largest size case of every task whose row misses a goal; the evidence goes into that row.
  bool profile_gaps = false;
  std::filesystem::path ncu;  // empty: found on PATH or under /opt/nvidia/nsight-compute
  // PyTorch problems: the header the summary carries; the torch version is completed from the tasks.
  std::optional<TorchBenchHeader> torch;
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

// PyTorch problems (docs/bench.md, "PyTorch problems"). A problem is a .py file holding `class Model`;
// is_torch_corpus: some root is such a file, or no root holds a task.toml and some problem is found.
bool is_torch_corpus(std::vector<std::filesystem::path> const& roots);
// Every problem under `roots` (a root may be a problem file), sorted by id: the path relative to its root
// without ".py" ("level1/relu"), scenario its first folder (the level). `dir` is the problem file.
Result<std::vector<SuiteTask>> discover_torch_problems(std::vector<std::filesystem::path> const& roots,
                                                       std::vector<std::string> const& filters);
struct TorchTaskImport {
  std::filesystem::path tasks_root;  // each problem goes to <tasks_root>/<id>_<precision>
  std::string precision = "fp32";
  bool force = false;  // import again even when the task folder holds an import of the problem as it is
};
// Each problem imported (kopt/torch_import.hpp) or reused: a task folder that holds a task.toml, a
// torch_abi.json written by the importer as it is now (torch_importer_digest) and a problem.py with the
// problem file's text is kept (folders imported on another machine and copied here are reused). A problem
// that fails to import keeps its file as `dir` and gets import_error.
std::vector<SuiteTask> import_torch_tasks(
    std::vector<SuiteTask> const& problems, TorchTaskImport const& request,
    std::function<void(std::size_t, SuiteTask const&)> const& progress = {});
// The short commit of the git work tree holding `path` (with " + uncommitted changes" when `git status`
// lists something under it), "-" when it is in none or git is not on PATH.
std::string corpus_commit(std::filesystem::path const& path);

// Geomeans and goals from rows (run_suite_bench calls it; exposed for tests and re-rendering).
// With summary.torch set: the PyTorch metrics instead of the goals.
void summarise_bench(BenchSummary& summary);

nlohmann::json bench_to_json(BenchSummary const& summary);  // schema kopt.bench/1
// A kopt.bench/1 document read back (rows, device, start, elapsed); geomeans and goals are recomputed.
// Errors name `origin` and the field.
Result<BenchSummary> bench_from_json(nlohmann::json const& json, std::string const& origin);
// Several benches (e.g. parts of a suite run on different GPUs or in separate calls) as one: rows in order,
// devices and starts joined, elapsed times added, goals recomputed over all rows. A task that appears in
// several parts keeps the rows of the last one (a re-run after a fix).
BenchSummary merge_benches(std::vector<BenchSummary> const& parts);
// Its renderings (text, Markdown, SVG) are kopt/bench_report.hpp's.

}  // namespace kopt
