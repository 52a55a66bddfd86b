// `kopt optimize`: the tuning space of a candidate, searched by a strategy, every candidate verified and
// timed by an evaluator and recorded in the store. Joins tuning, search, eval and store; docs/optimize.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/compile.hpp"
#include "kopt/eval.hpp"
#include "kopt/insight.hpp"
#include "kopt/measure.hpp"
#include "kopt/profile_candidate.hpp"
#include "kopt/result.hpp"
#include "kopt/search.hpp"
#include "kopt/strong_id.hpp"
#include "kopt/task.hpp"
#include "kopt/tuning.hpp"

namespace kopt {

// The store's types, without its header (this header needs neither the store's nor the search's API).
class Store;
using RunId = StrongId<struct RunIdTag>;
using SessionId = StrongId<struct SessionIdTag>;
struct InsightRecord;
struct StoredInsight;
using CandidateKey = StrongId<struct CandidateKeyTag, std::string>;

// ---- concrete candidates -------------------------------------------------------------------------

// One configuration made concrete: the knob values are `#define` lines at the top of the source and
// the `// kopt:launch` line holds numbers, so the text compiles as it is; flag knobs stay compiler flags.
struct CandidateInput {
  std::string name;                // the configuration key, e.g. BLOCK=128;VEC=4
  std::string source;              // materialised text
  std::vector<std::string> flags;  // compiler flags beyond the source (flag knobs, then --flag values)
  std::map<std::string, std::string, std::less<>> knobs;  // knob name -> value text
  CandidateMode mode = CandidateMode::kernel;
};

Result<CandidateInput> materialise(TuningSpace const& space, Configuration const& config,
                                   std::string const& source, TaskSpec const& task,
                                   std::vector<std::string> const& extra_flags = {});

// Where evaluations happen: what makes two evaluations of the same text comparable.
struct EvaluationTarget {
  std::string device_name;
  std::string device_uuid;
  std::string driver;
  std::string toolkit;
  std::string arch;
  DeviceCeilings ceilings;  // for the cheap (roofline) insights of each evaluation; not part of the key
};

// Content key of a candidate: a 128-bit hash (hex) of the materialised source, its flags, the
// architecture and the toolkit.
CandidateKey content_key(CandidateInput const& candidate, EvaluationTarget const& target);

// ---- evaluators ----------------------------------------------------------------------------------

class CandidateEvaluator {
 public:
  virtual ~CandidateEvaluator() = default;
  virtual EvaluationTarget target() const = 0;
  // One report per candidate, in order; Error only when nothing could be evaluated (no worker, ...).
  virtual Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                        std::vector<CandidateInput> const& candidates,
                                                        TimingTier tier) = 0;
  Result<CandidateReport> evaluate_one(TaskSpec const& task, CandidateInput const& candidate,
                                       TimingTier tier);
  // A hint: these candidates will be evaluated soon, so an evaluator that builds them may start now
  // (the GPU evaluator compiles them while the current batch runs). Does nothing by default.
  virtual void compile_ahead(TaskSpec const& /*task*/, std::vector<CandidateInput> const& /*candidates*/) {}
  // A hint: `task` comes next (a benchmark's next task), so an evaluator may build its reference and
  // baseline now, while the GPU works on the current one. Does nothing by default.
  virtual void prepare(TaskSpec const& /*task*/) {}
  // Builds `task`'s reference and baseline now and waits for them: a search calls it before its clock
  // starts, so that its first evaluation does not wait for nvcc, and a reference that does not compile
  // stops the run before any candidate is evaluated. Error: what evaluate() would say of that build.
  // Ok by default (nothing to build).
  virtual Status build_trusted_code(TaskSpec const& /*task*/) { return Ok{}; }
  // Joules per call of the candidate (and of the reference when options.reference) on one size case
  // (Evaluator::measure_energy). Error not_found when this evaluator cannot measure energy (the default).
  virtual Result<EnergyReport> measure_energy(TaskSpec const& task, CandidateInput const& candidate,
                                              EnergyOptions const& options);
  // One call of the candidate under Nsight Compute, classified and analysed (profile_candidate). Error
  // not_found when this evaluator cannot profile (the default).
  virtual Result<CandidateProfile> profile(TaskSpec const& task, CandidateInput const& candidate,
                                           ProfileOptions const& options);
};

// The GPU: kopt::Evaluator, one per timing tier, started on first use. Per-candidate knob values travel
// in the materialised source, flag knobs as the candidate's own compiler flags.
class KoptCandidateEvaluator final : public CandidateEvaluator {
 public:
  // Starts the screen-tier evaluator; fails (no_gpu, toolchain_error, ...) like Evaluator::create.
  static Result<std::unique_ptr<KoptCandidateEvaluator>> create(EvalOptions base);
  ~KoptCandidateEvaluator() override;
  KoptCandidateEvaluator(KoptCandidateEvaluator const&) = delete;
  KoptCandidateEvaluator& operator=(KoptCandidateEvaluator const&) = delete;

  EvaluationTarget target() const override;
  Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                std::vector<CandidateInput> const& candidates,
                                                TimingTier tier) override;
  void compile_ahead(TaskSpec const& task, std::vector<CandidateInput> const& candidates) override;
  void prepare(TaskSpec const& task) override;
  Status build_trusted_code(TaskSpec const& task) override;
  Result<EnergyReport> measure_energy(TaskSpec const& task, CandidateInput const& candidate,
                                      EnergyOptions const& options) override;
  Result<CandidateProfile> profile(TaskSpec const& task, CandidateInput const& candidate,
                                   ProfileOptions const& options) override;

  struct Impl;

 private:
  explicit KoptCandidateEvaluator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// What the fake evaluator returns for a configuration: a status and, for ok, per-size medians.
struct FakeResult {
  CandidateStatus status = CandidateStatus::ok;
  std::string message;
  std::vector<double> candidate_us;  // one per timed size case
  std::vector<double> reference_us;  // same length
  ResourceUsage resources;           // what ptxas would report (the cheap insights read spills from it)
  // Joules per call of the candidate and of the reference on the largest timed size case; without
  // them measure_energy answers as a machine without NVML does (not_found).
  std::optional<double> energy_j;
  std::optional<double> reference_energy_j;
  std::vector<double> baseline_us;  // the vendor baseline per timed size case (empty: none)
  PhaseTimes phases;                // what the report says the evaluation's phases took
};
using FakeFunction = std::function<FakeResult(std::map<std::string, std::string, std::less<>> const& knobs)>;

// For tests: answers from a function of the knob values, counts its calls, never touches a GPU.
class FakeCandidateEvaluator final : public CandidateEvaluator {
 public:
  explicit FakeCandidateEvaluator(FakeFunction function, EvaluationTarget target = fake_target());
  EvaluationTarget target() const override { return target_; }
  Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                std::vector<CandidateInput> const& candidates,
                                                TimingTier tier) override;
  std::size_t calls() const noexcept { return calls_; }  // candidates evaluated
  std::size_t confirm_calls() const noexcept { return confirm_calls_; }
  void prepare(TaskSpec const& task) override { prepared_.push_back(task.dir); }
  // The folders of the tasks handed to prepare(), in order.
  std::vector<std::filesystem::path> const& prepared() const noexcept { return prepared_; }
  // build_trusted_code answers `failure` when set (a reference that does not compile), else Ok; counted.
  void set_trusted_build_failure(std::optional<Error> failure) { trusted_failure_ = std::move(failure); }
  Status build_trusted_code(TaskSpec const& task) override;
  std::size_t trusted_builds() const noexcept { return trusted_builds_; }
  // Energy from FakeResult::energy_j (the same for every trial, spread 2 %); counts its calls.
  Result<EnergyReport> measure_energy(TaskSpec const& task, CandidateInput const& candidate,
                                      EnergyOptions const& options) override;
  std::size_t energy_calls() const noexcept { return energy_calls_; }
  // Profiles from `profiler` (unset: not_found, as a machine without Nsight Compute); counts its calls.
  using FakeProfiler = std::function<CandidateProfile(TaskSpec const&, CandidateInput const&)>;
  void set_profiler(FakeProfiler profiler) { profiler_ = std::move(profiler); }
  Result<CandidateProfile> profile(TaskSpec const& task, CandidateInput const& candidate,
                                   ProfileOptions const& options) override;
  std::vector<std::string> const& profiled() const noexcept { return profiled_; }  // candidate names
  std::size_t reference_energy_calls() const noexcept { return reference_energy_calls_; }
  static EvaluationTarget fake_target();

 private:
  FakeFunction function_;
  EvaluationTarget target_;
  std::size_t calls_ = 0;
  std::size_t confirm_calls_ = 0;
  std::size_t energy_calls_ = 0;
  std::size_t reference_energy_calls_ = 0;
  std::vector<std::filesystem::path> prepared_;
  std::optional<Error> trusted_failure_;
  std::size_t trusted_builds_ = 0;
  FakeProfiler profiler_;
  std::vector<std::string> profiled_;
};

// For ablations and tests: answers each candidate with the evaluation a recorded run (typically an
// exhaustive one on a GPU) holds for the same knob values, on one tier, without compiling or running
// anything. A configuration the run does not hold is an error (not_found).
class RecordedRunEvaluator final : public CandidateEvaluator {
 public:
  static Result<std::unique_ptr<RecordedRunEvaluator>> create(Store& store, RunId run,
                                                              std::string_view tier = "screen");
  ~RecordedRunEvaluator() override;
  RecordedRunEvaluator(RecordedRunEvaluator const&) = delete;
  RecordedRunEvaluator& operator=(RecordedRunEvaluator const&) = delete;

  EvaluationTarget target() const override;  // the recorded device and toolkit
  Result<std::vector<CandidateReport>> evaluate(TaskSpec const& task,
                                                std::vector<CandidateInput> const& candidates,
                                                TimingTier tier) override;
  std::size_t configurations() const noexcept;           // distinct knob settings recorded
  std::size_t calls() const noexcept { return calls_; }  // candidates answered

  struct Recording;

 private:
  explicit RecordedRunEvaluator(std::unique_ptr<Recording> recording);
  std::unique_ptr<Recording> recording_;
  std::size_t calls_ = 0;
};

// ---- the driver ----------------------------------------------------------------------------------

// What the search maximises (docs/optimize.md, "Objectives"): the runtime geomean speedup, the energy gain
// (reference J/call / candidate J/call on the largest timed size case), or sqrt(speedup x energy gain).
enum class OptimizeObjective { runtime, energy, composite };
std::string_view to_string(OptimizeObjective objective) noexcept;
std::optional<OptimizeObjective> optimize_objective_from_string(std::string_view text) noexcept;
// How a score of the objective reads: "speedup", "energy gain", "composite".
std::string_view objective_label(OptimizeObjective objective) noexcept;

struct OptimizeOptions {
  std::string strategy = "mcts";      // mcts, greedy, random, exhaustive
  std::size_t max_evaluations = 100;  // unique points, store answers included
  double max_wall_seconds = 0.0;      // 0: no limit (each session: resume starts the clock again)
  std::uint64_t seed = 0;
  std::filesystem::path source_path;  // recorded; the text itself is passed to optimize()
  std::vector<std::string> flags;     // extra compiler flags for every candidate
  bool confirm = true;                // re-evaluate the incumbent on the confirm tier at the end
  // MCTS: start from what earlier finished runs of the task family learned about each action (a
  // snapshot taken when the run is created), and add this run's outcomes when it finishes.
  bool search_memory = true;
  MctsConfig mcts;  // MCTS constants (docs/search.md); kept with the run, so a resume uses the same
  OptimizeObjective objective = OptimizeObjective::runtime;  // kept with the run (older runs: runtime)
  // The library session the run is part of (propose_and_tune), and its part in it; unset: none.
  std::optional<SessionId> session;
  std::string session_strategy;
  std::string session_phase;
};

// The search-memory family of a task: its `family`, or "task:<name>" when it declares none.
std::string search_memory_family(TaskSpec const& task);

// "mcts", "greedy", "random", "exhaustive".
bool is_optimize_strategy(std::string_view name) noexcept;

struct OptimizeProgress {
  std::string phase;            // "search" or "confirm"
  std::size_t evaluations = 0;  // unique points so far
  std::size_t budget = 0;
  std::size_t evaluated = 0;  // by the evaluator, this session
  std::size_t from_store = 0;
  std::string config;  // the point just evaluated
  CandidateStatus status = CandidateStatus::ok;
  std::optional<double> speedup;       // runtime geomean speedup of the point
  std::optional<double> score;         // its objective score (unset for the runtime objective)
  std::optional<double> best_speedup;  // runtime speedup of the best ok screen point so far (by objective)
  std::optional<double> best_score;    // and its objective score (unset for the runtime objective)
  std::string best_config;
  OptimizeObjective objective = OptimizeObjective::runtime;
};
using OptimizeProgressCallback = std::function<void(OptimizeProgress const&)>;

// Where a search's wall time went, summed over the evaluator's fresh screen evaluations (docs/optimize.md,
// "Where the time goes"). Compiles run on all cores while the GPU works, so compile_cpu_ms overlaps the
// rest; compile_wait_ms is the part the evaluator spent waiting for a compile (the GPU idle). The search's
// wall time not in compile_wait_ms, worker_ms or trusted_build_ms is kopt's own work between evaluations
// (the search, the store).
struct SearchTimeAccount {
  std::size_t evaluations = 0;
  double compile_cpu_ms = 0.0;
  double compile_wait_ms = 0.0;
  double worker_ms = 0.0;  // worker round trips; load, verify and time are inside
  double load_ms = 0.0;
  double verify_ms = 0.0;
  double time_ms = 0.0;
  double activity_ms = 0.0;       // inside time_ms
  double trusted_build_ms = 0.0;  // inside the search (0 when built before it, as optimize does)
  double first_result_ms = 0.0;   // from the search's start to its first fresh report
  // Before the search's clock started: the task's reference and baseline built (build_trusted_code).
  // Not in search_ms; reported beside it.
  double setup_ms = 0.0;
  void add(PhaseTimes const& phases) noexcept;
};
nlohmann::json search_time_to_json(SearchTimeAccount const& account, double search_seconds);
// "search 6.6 s: worker 4.5 s (load 0.2 s, verify 1.1 s, time 3.0 s), waiting for compiles 1.2 s, kopt
// 0.9 s; first result after 0.4 s; compiles took 38 s of CPU time; the reference was built before the
// search in 1.5 s", empty when nothing was evaluated.
std::string search_time_line(SearchTimeAccount const& account, double search_seconds);

struct OptimizeResult {
  RunId run;
  std::size_t points = 0;   // unique points of the search (replayed ones included)
  std::string stop_reason;  // evaluations, wall_time, exhausted, stalled
  double elapsed_seconds = 0.0;
  std::size_t evaluated = 0;             // evaluator calls this session (search and confirm)
  std::size_t from_store = 0;            // search points answered from the store
  std::size_t skipped_invalid = 0;       // proposals pruned by learned resource failures
  std::size_t learned_invalid = 0;       // resource failures recorded
  std::optional<CandidateId> incumbent;  // the search's incumbent (guardrail), as stored
  std::string incumbent_config;
  std::optional<double> incumbent_screen_speedup;  // runtime geomean speedup, whatever the objective
  std::optional<CandidateReport> confirmed;        // the incumbent on the confirm tier
  OptimizeObjective objective = OptimizeObjective::runtime;
  std::optional<double> incumbent_screen_score;  // objective score (unset for the runtime objective)
  std::optional<double> confirmed_score;         // the same on the confirm tier (full energy protocol)
  SearchTimeAccount search_time;                 // the search's fresh evaluations (not the confirm)
  double confirm_seconds = 0.0;                  // the confirm tier's evaluation of the incumbent
};

// A new run: search the source's tuning space on `task`, record everything in `store`.
Result<OptimizeResult> optimize(TaskSpec const& task, std::string const& source,
                                OptimizeOptions const& options, CandidateEvaluator& evaluator, Store& store,
                                OptimizeProgressCallback const& progress = {});

// A run as recorded, with what optimize() was given.
struct OptimizeRunInfo {
  RunId id;
  std::string status;  // running, finished, interrupted
  std::string task_name;
  std::filesystem::path task_dir;
  OptimizeOptions options;
  std::string source;
};
Result<OptimizeRunInfo> load_optimize_run(Store& store, RunId run);

// Continues a run that did not finish: the same strategy and seed replay the recorded points (answered
// from the store, not evaluated), then the search goes on to the run's budget.
Result<OptimizeResult> resume(RunId run, TaskSpec const& task, CandidateEvaluator& evaluator, Store& store,
                              OptimizeProgressCallback const& progress = {});

// ---- insights in the store (docs/analysis.md, "Handing findings to proposers") -------------------------

// The store's row for an insight: its kopt.insight/1 document and the fields copied out of it.
InsightRecord insight_record(CandidateInsight const& insight);
// The stored documents that decode, in the given order; one that does not is left out (a missing insight
// only means less advice).
std::vector<CandidateInsight> decode_insights(std::vector<StoredInsight> const& stored);
// current_insights of everything recorded for the candidate (every evaluation, every source).
Result<std::vector<CandidateInsight>> load_candidate_insights(Store& store, CandidateId candidate);
// The InsightSource of search nodes recorded in `store` (which must outlive it).
std::unique_ptr<InsightSource> make_store_insight_source(Store& store);

// ---- runs and export -----------------------------------------------------------------------------

struct RunSummary {
  RunId id;
  std::string task_name;
  std::string task_dir;
  std::string started_at;
  std::optional<std::string> finished_at;
  std::string status;
  std::string strategy;
  std::uint64_t seed = 0;
  std::size_t candidates = 0;
  std::size_t evaluations = 0;
  std::optional<double> best_screen_speedup;
  std::optional<double> best_confirmed_speedup;
  std::optional<SessionId> session;  // the library session the run is part of
  std::string session_strategy;      // its part in it: the library strategy and the phase
  std::string session_phase;
};
Result<std::vector<RunSummary>> summarise_runs(Store& store);  // every run, oldest first

// One library session (`kopt optimize TASK` without --from) and its runs.
struct SessionSummary {
  SessionId id;
  std::string kind;
  std::string task_name;
  std::string task_dir;
  std::string started_at;
  std::optional<std::string> finished_at;
  std::string status;
  std::vector<RunSummary> runs;  // oldest first
  // The session's best verified candidate (confirm tier first): its run, strategy, tier and speedup.
  std::optional<RunId> best_run;
  std::string best_strategy;
  std::string best_tier;
  std::optional<double> best_speedup;
};

// What `kopt runs` lists: the sessions, each with its runs, and the runs of no session, oldest first.
struct RunsListing {
  std::string store;  // the file, named by the text ("no runs in <path>")
  std::vector<SessionSummary> sessions;
  std::vector<RunSummary> runs;
};
Result<RunsListing> list_runs_and_sessions(Store& store);
nlohmann::json runs_to_json(RunsListing const& listing);  // schema kopt.runs/2
// Oldest first; a session is one line with its runs indented under it.
std::string render_runs(RunsListing const& listing);

struct ExportedCandidate {
  RunId run;  // the run holding it
  CandidateId candidate;
  nlohmann::json knobs;
  double geomean_speedup = 0.0;
  std::string tier;  // confirm when the run has a confirmed ok candidate, else screen
  std::string source;
};
// The best ok candidate of the run (confirm tier first, else screen), written to `out`.
Result<ExportedCandidate> export_best(Store& store, RunId run, std::filesystem::path const& out);
// The best ok candidate of the session's runs (confirm tier first, else screen), written to `out`.
Result<ExportedCandidate> export_session_best(Store& store, SessionId session,
                                              std::filesystem::path const& out);

}  // namespace kopt
