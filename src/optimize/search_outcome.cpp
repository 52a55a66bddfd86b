// search_outcome: a recorded evaluation as the search module's Outcome.
#include "kopt/optimize_space.hpp"

namespace kopt {

Outcome search_outcome(RecordedEvaluation const& evaluation, OptimizeObjective objective) {
  OutcomeData data = outcome_of(evaluation, objective);
  Outcome outcome{data.status, std::move(data.medians_us), std::move(data.iqrs_us),
                  std::move(data.reference_us), std::move(data.detail)};
  if (outcome.status == CandidateStatus::ok && outcome.size_medians_us.empty()) {
    outcome.size_medians_us = {1.0};
    outcome.size_iqr_us = {0.0};
    outcome.reference_us = {1.0};
  }
  return outcome;
}

}  // namespace kopt
