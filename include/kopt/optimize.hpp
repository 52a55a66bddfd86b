// `kopt optimize`: the tuning space of a candidate, searched by a strategy, every candidate verified and
// timed by an evaluator and recorded as a run (kopt/run_log.hpp). Joins tuning, search and eval;
// docs/optimize.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/compile.hpp"
#include "kopt/eval.hpp"
#include "kopt/measure.hpp"
#include "kopt/profile_candidate.hpp"
#include "kopt/result.hpp"
#include "kopt/run_log.hpp"
#include "kopt/search.hpp"
#include "kopt/search_time_account.hpp"
#include "kopt/strong_id.hpp"
#include "kopt/task.hpp"
#include "kopt/tuning.hpp"

namespace kopt {

// ---- concrete candidates -------------------------------------------------------------------------

// One configuration made concrete (CandidateInput, kopt/run_log.hpp): the knob values are `#define` lines
// at the top of the source and the `// kopt:launch` line holds numbers, so the text compiles as it is.
Result<CandidateInput> materialise(TuningSpace const& space, Configuration const& config,
                                   std::string const& source, TaskSpec const& task,
                                   std::vector<std::string> const& extra_flags = {});

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
  // How many candidates it evaluates at once (GPUs, farm workers): a search keeps that many in flight.
  virtual std::size_t concurrency() const { return 1; }
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
  DeviceInfo const& device() const;  // the GPU its worker runs on
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

struct OptimizeResult {
  RunId run;
  std::size_t points = 0;   // unique points of the search (replayed ones included)
  std::string stop_reason;  // evaluations, wall_time, exhausted, stalled
  double elapsed_seconds = 0.0;
  std::size_t evaluated = 0;               // evaluator calls this session (search and confirm)
  std::size_t from_store = 0;              // search points answered from the store
  std::size_t concurrent_evaluations = 1;  // candidates in flight at once (the evaluator's GPUs or workers)
  std::size_t skipped_invalid = 0;         // proposals pruned by learned resource failures
  std::size_t learned_invalid = 0;         // resource failures recorded
  std::optional<CandidateId> incumbent;    // the search's incumbent (guardrail), as stored
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

// A run of one candidate without a tuning space (the proposer's size dispatch): evaluated on the screen
// tier, answered from the store when a run on the same target holds it, and, when it verifies and
// options.confirm, on the confirm tier; recorded as a run of one point (options.session and its part
// included). Runtime objective only (invalid_argument otherwise).
Result<OptimizeResult> evaluate_as_run(TaskSpec const& task, CandidateInput const& candidate,
                                       OptimizeOptions const& options, CandidateEvaluator& evaluator,
                                       Store& store);

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

// A new run recorded as optimize() records one: the options document (kopt.optimize/1, which
// load_optimize_run reads back), the budget, the session part and, with search memory, the snapshot of the
// task family's memory. The source search records its runs so too.
Result<RunLog> create_optimize_run(Store& store, TaskSpec const& task, std::string const& source,
                                   OptimizeOptions const& options);

// Continues a run that did not finish: the same strategy and seed replay the recorded points (answered
// from the store, not evaluated), then the search goes on to the run's budget.
Result<OptimizeResult> resume(RunId run, TaskSpec const& task, CandidateEvaluator& evaluator, Store& store,
                              OptimizeProgressCallback const& progress = {});

}  // namespace kopt
