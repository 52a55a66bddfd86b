// CandidateEvaluator: evaluate_one, and the answers of an evaluator that cannot measure energy or profile.
#include "kopt/optimize.hpp"

namespace kopt {

Result<CandidateReport> CandidateEvaluator::evaluate_one(TaskSpec const& task,
                                                         CandidateInput const& candidate, TimingTier tier) {
  auto reports = evaluate(task, {candidate}, tier);
  if (!reports) return reports.error();
  if (reports->size() != 1) {
    return make_error(ErrorCode::internal_error,
                      "candidate evaluator: expected 1 report, got " + std::to_string(reports->size()));
  }
  return std::move(reports->front());
}

Result<EnergyReport> CandidateEvaluator::measure_energy(TaskSpec const& task, CandidateInput const& candidate,
                                                        EnergyOptions const& /*options*/) {
  return make_error(ErrorCode::not_found,
                    "energy: unavailable: this evaluator does not measure energy (task '" + task.name +
                        "', candidate " + candidate.name + ")");
}

Result<CandidateProfile> CandidateEvaluator::profile(TaskSpec const& task, CandidateInput const& candidate,
                                                     ProfileOptions const& /*options*/) {
  return make_error(ErrorCode::not_found, "profile: unavailable: this evaluator does not profile (task '" +
                                              task.name + "', candidate " + candidate.name + ")");
}

}  // namespace kopt
