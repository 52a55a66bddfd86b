// FakeCandidateEvaluator: answers from a function of the knob values, for the tests of every module that
// drives an evaluator (optimize, propose, generate, source_search, suite_bench, run_report).
#include "support/fake_candidate_evaluator.hpp"

#include <cmath>

namespace kopt {

FakeCandidateEvaluator::FakeCandidateEvaluator(FakeFunction function, EvaluationTarget target)
    : function_(std::move(function)), target_(std::move(target)) {}

EvaluationTarget FakeCandidateEvaluator::fake_target() {
  // Nominal H200 ceilings (4.8 TB/s, 67 TFLOP/s FP32, 989 TFLOP/s dense 16-bit tensor), so that the cheap
  // insights of fake evaluations have a roofline.
  EvaluationTarget target{"fake device", "fake-uuid", "0", "fake toolkit", "sm_90"};
  target.ceilings = DeviceCeilings{4.8e12, 6.7e13, 9.89e14};
  return target;
}

namespace {

// Every trial reads the same J/call but the last, 2 % above: a spread for the guardrail's noise.
EnergyMeasurement energy(double joules_per_call, int trials) {
  EnergyMeasurement measurement;
  for (int trial = 0; trial < trials; ++trial) {
    double const j = trial + 1 == trials && trials > 1 ? joules_per_call * 1.02 : joules_per_call;
    measurement.trials.push_back(EnergyTrial{j * 1000.0, 2.0, 1000, j, j * 500.0, 90.0});
  }
  measurement.joules_per_call = {joules_per_call, joules_per_call,
                                 trials > 1 ? joules_per_call * 1.02 : joules_per_call};
  measurement.avg_watts = joules_per_call * 500.0;
  measurement.calls = 1000;
  return measurement;
}

KernelTiming timing(double median_us) {
  KernelTiming timing;
  timing.us.count = 10;
  timing.us.median = median_us;
  timing.us.mean = median_us;
  timing.us.min = median_us * 0.99;
  timing.us.max = median_us * 1.01;
  timing.us.q1 = median_us * 0.995;
  timing.us.q3 = median_us * 1.005;
  return timing;
}

}  // namespace

Status FakeCandidateEvaluator::build_trusted_code(TaskSpec const& /*task*/) {
  ++trusted_builds_;
  if (trusted_failure_) return *trusted_failure_;
  return Ok{};
}

Result<std::vector<CandidateReport>> FakeCandidateEvaluator::evaluate(
    TaskSpec const& task, std::vector<CandidateInput> const& candidates, TimingTier tier) {
  std::vector<CandidateReport> reports;
  for (CandidateInput const& candidate : candidates) {
    ++calls_;
    if (tier == TimingTier::confirm) ++confirm_calls_;
    FakeResult result = function_(candidate.knobs);
    if (source_verdict_) {
      if (auto const verdict = source_verdict_(candidate)) {
        result.status = *verdict;
        result.message = "fake verdict";
      }
    }
    CandidateReport report;
    report.name = candidate.name;
    report.mode = candidate.mode;
    report.status = result.status;
    report.message = result.message;
    report.resources = result.resources;
    report.phases = result.phases;
    std::size_t timed = 0;
    double log_sum = 0.0;
    for (SizeCase const& size : task.sizes) {
      SizeResult sr;
      sr.size = size.name;
      sr.verify_only = size.verify_only;
      sr.status = result.status;
      if (result.status == CandidateStatus::ok && !size.verify_only && timed < result.candidate_us.size() &&
          timed < result.reference_us.size()) {
        sr.candidate = timing(result.candidate_us[timed]);
        sr.reference = timing(result.reference_us[timed]);
        sr.speedup = result.reference_us[timed] / result.candidate_us[timed];
        if (timed < result.baseline_us.size()) {
          sr.baseline = timing(result.baseline_us[timed]);
          sr.vs_baseline = result.baseline_us[timed] / result.candidate_us[timed];
        }
        log_sum += std::log(*sr.speedup);
        ++timed;
      }
      report.sizes.push_back(std::move(sr));
    }
    if (result.status == CandidateStatus::ok && timed > 0)
      report.geomean_speedup = std::exp(log_sum / static_cast<double>(timed));
    reports.push_back(std::move(report));
  }
  return reports;
}

Result<EnergyReport> FakeCandidateEvaluator::measure_energy(TaskSpec const& task,
                                                            CandidateInput const& candidate,
                                                            EnergyOptions const& options) {
  ++energy_calls_;
  FakeResult const result = function_(candidate.knobs);
  if (!result.energy_j || !result.reference_energy_j) {
    return make_error(ErrorCode::not_found,
                      "energy: unavailable: the fake evaluator has no energy for " + candidate.name);
  }
  EnergyReport report;
  report.task = task.name;
  report.candidate = candidate.name;
  for (SizeCase const& size : task.sizes) {  // the largest timed size case, as the worker chooses
    if (options.size.empty() ? !size.verify_only : size.name == options.size) report.size = size.name;
  }
  report.mode = candidate.mode;
  report.status = result.status;
  report.message = result.message;
  report.window_s = options.window_s;
  report.cooldown_s = options.cooldown_s;
  report.trials = options.trials;
  if (result.status != CandidateStatus::ok) return report;
  report.candidate_energy = energy(*result.energy_j, options.trials);
  if (options.reference) {
    ++reference_energy_calls_;
    report.reference_energy = energy(*result.reference_energy_j, options.trials);
    report.ratio = *result.energy_j / *result.reference_energy_j;
  }
  return report;
}

Result<CandidateProfile> FakeCandidateEvaluator::profile(TaskSpec const& task,
                                                         CandidateInput const& candidate,
                                                         ProfileOptions const& options) {
  if (!profiler_) return CandidateEvaluator::profile(task, candidate, options);
  profiled_.push_back(candidate.name);
  return profiler_(task, candidate);
}

}  // namespace kopt
