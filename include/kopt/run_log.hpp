// Recording a run: what optimize, generate and the source search write to the store for every evaluation.
// A run is the store's `runs` row with its candidates, evaluations and insights; the three proposers record
// them alike, so that `kopt runs`, `kopt report` and `kopt export` read any run (kopt/runs.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kopt/compile.hpp"
#include "kopt/eval.hpp"
#include "kopt/insight.hpp"
#include "kopt/result.hpp"
#include "kopt/store.hpp"
#include "kopt/task.hpp"

namespace kopt {

// ---- what is evaluated, and where -------------------------------------------------------------------

// One candidate as an evaluator takes it and the store records it: the text compiles as it is (a tuned
// configuration has its knob values as `#define` lines); flag knobs stay compiler flags.
struct CandidateInput {
  std::string name;                // the configuration key, e.g. BLOCK=128;VEC=4
  std::string source;              // materialised text
  std::vector<std::string> flags;  // compiler flags beyond the source (flag knobs, then --flag values)
  std::map<std::string, std::string, std::less<>> knobs;  // knob name -> value text
  CandidateMode mode = CandidateMode::kernel;
};

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

// ---- what a run optimises ---------------------------------------------------------------------------

// What the search maximises (docs/optimize.md, "Objectives"): the runtime geomean speedup, the energy gain
// (reference J/call / candidate J/call on the largest timed size case), or sqrt(speedup x energy gain).
// Kept with the run: its recorded scores mean this objective's.
enum class OptimizeObjective { runtime, energy, composite };
std::string_view to_string(OptimizeObjective objective) noexcept;
std::optional<OptimizeObjective> optimize_objective_from_string(std::string_view text) noexcept;
// How a score of the objective reads: "speedup", "energy gain", "composite".
std::string_view objective_label(OptimizeObjective objective) noexcept;

// ---- an evaluation as the store keeps it ------------------------------------------------------------

struct RecordedEvaluation {
  CandidateStatus status = CandidateStatus::ok;
  std::string message;
  std::string tier;                       // screen or confirm
  std::optional<double> geomean_speedup;  // runtime, whatever the run's objective
  std::optional<double> objective_score;  // the run's objective score; unset for runtime
  nlohmann::json sizes = nlohmann::json::array();
  // The evaluation's insights, stored right after it (its own transaction: a kill in between leaves an
  // evaluation without insights, which is fine).
  std::vector<CandidateInsight> insights;
  // Where it ran (EvaluationPlace as JSON: host, worker, device_index, device_uuid, device_name); an
  // empty object when the evaluator did not say.
  nlohmann::json ran_on = nlohmann::json::object();
};

// An EvaluationPlace as recorded (kopt.eval/1's encoding), and back (nullopt for an empty or malformed
// object: evaluations recorded before schema version 9 have `{}`).
nlohmann::json place_json(EvaluationPlace const& place);
std::optional<EvaluationPlace> place_from_json(nlohmann::json const& json);

RecordedEvaluation record_of(CandidateReport const& report, TimingTier tier);
// record_of plus the report's cheap insights (build_roofline_insights; none for a failed candidate).
RecordedEvaluation record_with_insights(CandidateReport const& report, TimingTier tier, TaskSpec const& task,
                                        DeviceCeilings const& ceilings);

// Adds `evaluation` of `candidate` (evaluated on `target`) to the store, then its insights.
Result<EvaluationId> store_evaluation(Store& store, CandidateId candidate,
                                      RecordedEvaluation const& evaluation, EvaluationTarget const& target);

// What a search sees of a recorded evaluation: timed sizes only. Built from the recorded form, so a fresh
// report and the same report read back from the store give identical numbers.
struct OutcomeData {
  CandidateStatus status = CandidateStatus::ok;
  std::vector<double> medians_us;
  std::vector<double> iqrs_us;
  std::vector<double> reference_us;
  std::string detail;
};
// Per objective (docs/optimize.md, "Objectives"): runtime -> per timed size, candidate and reference
// medians; energy -> one entry, the J/call of the candidate and the reference (energy_spread_j as the
// noise) from the size entry that holds them; composite -> both. An ok evaluation without energy has no
// entries under energy or composite (it scores as the reference).
OutcomeData outcome_of(RecordedEvaluation const& evaluation,
                       OptimizeObjective objective = OptimizeObjective::runtime);
// The geomean of outcome_of's ratios for energy and composite (what the search maximises); unset for
// runtime (the store ranks those by geomean_speedup) and for failures.
std::optional<double> objective_score(RecordedEvaluation const& evaluation, OptimizeObjective objective);
// Adds the energy fields (energy_j_per_call, energy_spread_j, reference_energy_j_per_call, avg_watts) to
// the size entry the measurement ran on; false when the evaluation has no entry for that size.
bool add_energy(RecordedEvaluation& evaluation, std::string const& size, EnergyMeasurement const& candidate,
                double reference_j_per_call);
bool has_energy(RecordedEvaluation const& evaluation);

// ---- one run ------------------------------------------------------------------------------------------

// What earlier runs learned about one action, as the run saw it when it was created.
struct MemoryPrior {
  std::string action;
  std::int64_t tries = 0;
  double mean_gain = 0.0;
};

// One run in the store, as the proposer writing it sees it.
class RunLog {
 public:
  // A new run from its row (the proposer fills in its options document and budget). With a
  // `memory_family`, the store's search memory of that family is snapshotted into the run's options
  // (options.memory), so that a resume sees the prior the run started with; "" for a run without search
  // memory.
  static Result<RunLog> create(Store& store, Run run, std::string const& memory_family);
  // An existing run, with its own evaluations indexed by content key (for replay).
  static Result<RunLog> reopen(Store& store, RunId run);

  RunId id() const noexcept { return id_; }
  // This run's own evaluation of `key` on `tier`, if it has one.
  std::optional<RecordedEvaluation> own(CandidateKey const& key, std::string const& tier) const;
  std::optional<CandidateId> candidate_id(CandidateKey const& key) const;
  // The newest evaluation of `key` in any run on this device and toolkit, with that evaluation's insights
  // (recorded again with this run's copy of it).
  Result<std::optional<RecordedEvaluation>> cached(CandidateKey const& key, EvaluationTarget const& target);
  // Adds the candidate (once per run), the evaluation, then its insights.
  Result<CandidateId> record(CandidateKey const& key, CandidateInput const& candidate,
                             std::optional<CandidateId> parent, std::string const& action,
                             RecordedEvaluation const& evaluation, EvaluationTarget const& target);
  Status finish(bool finished);

  // The run's search-memory family ("" when the run does not use search memory) and the snapshot of
  // the store's memory for it taken at creation (kept in the run's options, so a resume sees it too).
  std::string const& memory_family() const noexcept { return memory_family_; }
  std::vector<MemoryPrior> const& memory_prior() const noexcept { return memory_prior_; }
  // What the finished run learned; the store adds it once per run.
  Status record_memory(std::vector<std::pair<std::string, double>> const& outcomes);

 private:
  RunLog(Store& store, RunId id) : store_(&store), id_(id) {}
  Store* store_;
  RunId id_;
  std::map<std::pair<std::string, std::string>, RecordedEvaluation> own_;  // (key, tier) -> newest
  std::map<std::string, CandidateId> ids_;
  std::string memory_family_;
  std::vector<MemoryPrior> memory_prior_;
};

// ---- insights in the store (docs/analysis.md, "Handing findings to proposers") ----------------------

// The store's row for an insight: its kopt.insight/1 document and the fields copied out of it.
InsightRecord insight_record(CandidateInsight const& insight);
// The stored documents that decode, in the given order; one that does not is left out (a missing insight
// only means less advice).
std::vector<CandidateInsight> decode_insights(std::vector<StoredInsight> const& stored);
// current_insights of everything recorded for the candidate (every evaluation, every source).
Result<std::vector<CandidateInsight>> load_candidate_insights(Store& store, CandidateId candidate);
// The InsightSource of search nodes recorded in `store` (which must outlive it).
std::unique_ptr<InsightSource> make_store_insight_source(Store& store);

}  // namespace kopt
