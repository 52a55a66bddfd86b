#include <algorithm>
#include <cmath>

#include "kopt/measure.hpp"

namespace kopt {
namespace {

// Microseconds needed to do `work` at `rate` per second; 0 when either is missing or not positive.
double microseconds_at(std::optional<double> work, double rate) {
  if (!work || !(*work > 0.0) || !(rate > 0.0)) return 0.0;
  return *work / rate * 1e6;
}

}  // namespace

SpeedOfLight speed_of_light(std::optional<double> bytes, std::optional<double> flops,
                            DeviceCeilings const& ceilings, bool tensor_cores_allowed) {
  double peak = ceilings.fp32_flops_per_s;
  if (tensor_cores_allowed && ceilings.tensor_flops_per_s > 0.0)
    peak = std::max(peak, ceilings.tensor_flops_per_s);
  SpeedOfLight sol;
  sol.memory_us = microseconds_at(bytes, ceilings.dram_bytes_per_s);
  sol.compute_us = microseconds_at(flops, peak);
  return sol;
}

bool implausibly_fast(double median_us, SpeedOfLight const& sol, double slack) noexcept {
  double const bound = sol.bound_us();
  if (!(bound > 0.0)) return false;
  return median_us * slack < bound;
}

double watchdog_deadline_ms(double reference_us, double factor, double floor_ms, double ceiling_ms) noexcept {
  double deadline = factor * reference_us / 1000.0;
  if (std::isnan(deadline) || deadline < floor_ms) deadline = floor_ms;
  if (deadline > ceiling_ms) deadline = ceiling_ms;  // the ceiling wins should floor exceed it
  return deadline;
}

}  // namespace kopt
