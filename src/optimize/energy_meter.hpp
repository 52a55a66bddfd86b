// Private to src/optimize: the energy of evaluated candidates for the energy and composite objectives
// (docs/optimize.md, "Objectives").
#pragma once

#include <map>
#include <string>

#include "kopt/optimize.hpp"
#include "kopt/run_log.hpp"

namespace kopt::optimize_detail {

// Measures an ok evaluation's energy on the task's largest timed size case and adds it to the evaluation's
// size entry (add_energy). Screen tier: one 2 s window after a 0.5 s cooldown; the reference's J/call is
// measured with the first candidate of each size and reused for the rest of the session. Confirm tier: the
// full protocol (3 trials, 1 s cooldown), the reference measured again the same way.
class EnergyMeter {
 public:
  EnergyMeter(CandidateEvaluator& evaluator, TaskSpec const& task, OptimizeObjective objective)
      : evaluator_(evaluator), task_(task), objective_(objective) {}

  // Does nothing for the runtime objective, a failed evaluation, a task without a timed size, or (screen
  // tier) an evaluation that has its energy already. Error when the energy cannot be measured (no NVML,
  // ...): the message names the objective's option. A candidate that fails while measured takes that
  // status.
  Status annotate(RecordedEvaluation& evaluation, CandidateInput const& candidate, TimingTier tier);

 private:
  CandidateEvaluator& evaluator_;
  TaskSpec const& task_;
  OptimizeObjective objective_;
  std::map<std::string, double> reference_j_;  // size case -> reference J/call (screen tier)
};

}  // namespace kopt::optimize_detail
