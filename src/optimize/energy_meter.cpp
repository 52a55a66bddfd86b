// EnergyMeter: a candidate's J/call for the energy and composite objectives, next to its timings.
#include "energy_meter.hpp"

#include <fmt/format.h>

namespace kopt::optimize_detail {

Status EnergyMeter::annotate(RecordedEvaluation& evaluation, CandidateInput const& candidate,
                             TimingTier tier) {
  if (objective_ == OptimizeObjective::runtime || evaluation.status != CandidateStatus::ok) return Ok{};
  if (tier == TimingTier::screen && has_energy(evaluation)) return Ok{};  // from the store, measured before
  std::string size;
  for (SizeCase const& each : task_.sizes) {  // the largest timed one, as Evaluator::measure_energy picks
    if (!each.verify_only) size = each.name;
  }
  if (size.empty()) return Ok{};  // nothing timed: scores as the reference

  EnergyOptions options;
  options.size = size;
  auto const cached = reference_j_.find(size);
  if (tier == TimingTier::screen) {
    options.window_s = 2.0;
    options.trials = 1;
    options.cooldown_s = 0.5;
    options.reference = cached == reference_j_.end();
  }  // confirm: the defaults (3 trials, 1 s cooldown, the reference measured the same way)
  std::string const option = fmt::format("--objective {}", to_string(objective_));
  auto report = evaluator_.measure_energy(task_, candidate, options);
  if (!report) {
    return make_error(
        report.error().code,
        fmt::format("{}: cannot measure the energy of {} on size '{}': {} (the {} objective "
                    "needs NVML's energy counter; use --objective runtime on this machine)",
                    option, candidate.name, size, report.error().message, to_string(objective_)));
  }
  if (report->status != CandidateStatus::ok) {
    evaluation.status = report->status;
    evaluation.message = fmt::format("energy measurement on size '{}': {}", size, report->message);
    return Ok{};
  }
  if (!report->candidate_energy || (options.reference && !report->reference_energy)) {
    return make_error(
        ErrorCode::internal_error,
        fmt::format("{}: the energy report of {} on size '{}' has no {} measurement", option, candidate.name,
                    size, report->candidate_energy ? "reference" : "candidate"));
  }
  double const reference_j =
      options.reference ? report->reference_energy->joules_per_call.median : cached->second;
  if (tier == TimingTier::screen && options.reference) reference_j_[size] = reference_j;
  if (!add_energy(evaluation, size, *report->candidate_energy, reference_j)) {
    return make_error(ErrorCode::internal_error,
                      fmt::format("{}: the evaluation of {} has no size entry '{}' for its energy", option,
                                  candidate.name, size));
  }
  return Ok{};
}

}  // namespace kopt::optimize_detail
