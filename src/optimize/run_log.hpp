// Private to src/optimize: what the driver records in the store and reads back.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kopt/optimize.hpp"
#include "kopt/store.hpp"

namespace kopt::optimize_detail {

// An evaluation as the store keeps it.
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
};

RecordedEvaluation record_of(CandidateReport const& report, TimingTier tier);
// record_of plus the report's cheap insights (build_roofline_insights; none for a failed candidate).
RecordedEvaluation record_with_insights(CandidateReport const& report, TimingTier tier, TaskSpec const& task,
                                        DeviceCeilings const& ceilings);

// Adds `evaluation` of `candidate` (evaluated on `target`) to the store, then its insights.
Result<EvaluationId> store_evaluation(Store& store, CandidateId candidate,
                                      RecordedEvaluation const& evaluation, EvaluationTarget const& target);

// What the search sees: timed sizes only. Built from the recorded form, so a fresh report and the same
// report read back from the store give identical numbers.
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

// The optimize options as the run's `options` JSON, and back (the search-memory snapshot is added and
// read by RunLog).
nlohmann::json options_json(OptimizeOptions const& options, std::string const& source);
Result<OptimizeOptions> options_from_json(nlohmann::json const& json, RunId run);

// What earlier runs learned about one action, as the run saw it when it was created.
struct MemoryPrior {
  std::string action;
  std::int64_t tries = 0;
  double mean_gain = 0.0;
};

// One run in the store.
class RunLog {
 public:
  static Result<RunLog> create(Store& store, TaskSpec const& task, std::string const& source,
                               OptimizeOptions const& options);
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

}  // namespace kopt::optimize_detail
