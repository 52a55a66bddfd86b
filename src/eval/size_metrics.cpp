#include "eval/size_metrics.hpp"

#include <fmt/format.h>

#include <cmath>

namespace kopt {

std::optional<double> work_model_value(std::optional<Expr> const& expr, ScalarEnv const& env) {
  if (!expr) return std::nullopt;
  auto v = expr->evaluate(env);
  if (!v) return std::nullopt;
  return static_cast<double>(*v);
}

double comparable_median(KernelTiming const& timing, KernelTiming const& other, double graph_below_us) {
  if (timing.graph_us && other.graph_us &&
      (timing.us.median < graph_below_us || other.us.median < graph_below_us)) {
    return timing.graph_us->median;
  }
  return timing.us.median;
}

double geomean(std::vector<double> const& values) {
  if (values.empty()) return 0.0;
  double log_sum = 0.0;
  for (double v : values) log_sum += std::log(v);
  return std::exp(log_sum / static_cast<double>(values.size()));
}

void apply_size_metrics(TaskSpec const& task, SizeCase const& size, DeviceInfo const& device,
                        double graph_below_us, SizeResult& result) {
  auto const env = task.env_for(size);
  result.bytes = work_model_value(task.work.bytes, env);
  result.flops = work_model_value(task.work.flops, env);
  if (!result.candidate) return;
  KernelTiming const& cand = *result.candidate;
  if (result.reference) {
    double const c = comparable_median(cand, *result.reference, graph_below_us);
    double const r = comparable_median(*result.reference, cand, graph_below_us);
    if (c > 0) result.speedup = r / c;
  }
  if (result.baseline) {
    double const c = comparable_median(cand, *result.baseline, graph_below_us);
    double const b = comparable_median(*result.baseline, cand, graph_below_us);
    if (c > 0) result.vs_baseline = b / c;
  }
  double const median_us = cand.us.median;
  if (median_us <= 0) return;
  if (result.bytes) result.achieved_gbps = *result.bytes / (median_us * 1e-6) / 1e9;
  if (result.flops) result.achieved_gflops = *result.flops / (median_us * 1e-6) / 1e9;

  // Roofline for people: the precision the task computes in.
  bool const tensor = tensor_cores_allowed(task);
  SpeedOfLight const sol = speed_of_light(result.bytes, result.flops, device.ceilings, tensor);
  result.sol_us = sol.bound_us();
  if (result.sol_us > 0) result.pct_of_sol = 100.0 * result.sol_us / median_us;

  // Plausibility: against the highest peak the chip has (tensor cores count even in FP32 tasks), and
  // against memory only when the data cannot sit in L2 between samples (the L2 is flushed, but
  // small outputs can still be absorbed by it).
  SpeedOfLight const hard = speed_of_light(result.bytes, result.flops, device.ceilings, true);
  bool const memory_bound_is_tight =
      result.bytes && *result.bytes >= 2.0 * static_cast<double>(device.l2_bytes);
  SpeedOfLight checked = hard;
  if (!memory_bound_is_tight) checked.memory_us = 0.0;
  if (result.status == CandidateStatus::ok && implausibly_fast(median_us, checked)) {
    result.status = CandidateStatus::implausibly_fast;
    result.message = fmt::format(
        "size '{}': median {:.3g} µs is below the speed-of-light bound {:.3g} µs (memory {:.3g} µs at {:.0f} "
        "GB/s, "
        "compute {:.3g} µs); the work model or the measurement is wrong, not a win",
        size.name, median_us, checked.bound_us(), checked.memory_us, device.ceilings.dram_bytes_per_s / 1e9,
        checked.compute_us);
  }
}

}  // namespace kopt
