// Calibrated reward: log geomean speedup for ok candidates, a penalty per failure status otherwise.
#include <cmath>

#include "kopt/search.hpp"

namespace kopt {

std::string outcome_problem(Outcome const& outcome) {
  auto const sizes = outcome.size_medians_us.size();
  if (sizes == 0) return "size_medians_us is empty (expected one median per timed size case)";
  if (outcome.reference_us.size() != sizes) {
    return "reference_us has " + std::to_string(outcome.reference_us.size()) + " entries, expected " +
           std::to_string(sizes) + " (one per size in size_medians_us)";
  }
  if (!outcome.size_iqr_us.empty() && outcome.size_iqr_us.size() != sizes) {
    return "size_iqr_us has " + std::to_string(outcome.size_iqr_us.size()) + " entries, expected 0 or " +
           std::to_string(sizes);
  }
  for (std::size_t i = 0; i < sizes; ++i) {
    if (!(outcome.size_medians_us[i] > 0.0) || !std::isfinite(outcome.size_medians_us[i])) {
      return "size_medians_us[" + std::to_string(i) + "] is not a positive finite time";
    }
    if (!(outcome.reference_us[i] > 0.0) || !std::isfinite(outcome.reference_us[i])) {
      return "reference_us[" + std::to_string(i) + "] is not a positive finite time";
    }
    if (!outcome.size_iqr_us.empty() && !(outcome.size_iqr_us[i] >= 0.0)) {
      return "size_iqr_us[" + std::to_string(i) + "] is not a non-negative number";
    }
  }
  return {};
}

std::optional<double> geomean_speedup(Outcome const& outcome) {
  if (outcome.status != CandidateStatus::ok || !outcome_problem(outcome).empty()) return std::nullopt;
  double log_sum = 0.0;
  for (std::size_t i = 0; i < outcome.size_medians_us.size(); ++i) {
    log_sum += std::log(outcome.reference_us[i] / outcome.size_medians_us[i]);
  }
  return std::exp(log_sum / static_cast<double>(outcome.size_medians_us.size()));
}

// The table in docs/search.md. A failure later in the pipeline says more of the candidate works
// (it compiled, launched, ran), so it is penalised less than an earlier one; all penalties sit
// below log(1/4), a 4x slowdown, which no candidate worth keeping reaches.
double failure_penalty(CandidateStatus status) noexcept {
  switch (status) {
    case CandidateStatus::ok: return 0.0;
    case CandidateStatus::compile_error:
    case CandidateStatus::sandbox_violation: return -3.0;
    case CandidateStatus::load_error: return -2.75;
    case CandidateStatus::launch_error: return -2.5;
    case CandidateStatus::runtime_error:
    case CandidateStatus::out_of_bounds_write: return -2.25;
    case CandidateStatus::timeout:
    case CandidateStatus::input_mutated: return -2.0;
    case CandidateStatus::wrong_output: return -1.75;
    case CandidateStatus::nondeterministic:
    case CandidateStatus::implausibly_fast: return -1.5;
  }
  return -3.0;
}

double reward(Outcome const& outcome) {
  if (outcome.status != CandidateStatus::ok) return failure_penalty(outcome.status);
  auto const speedup = geomean_speedup(outcome);
  if (!speedup) return failure_penalty(CandidateStatus::compile_error);
  return std::log(*speedup);
}

}  // namespace kopt
