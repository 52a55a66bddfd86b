#include "analysis/launch_facts.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/tool_support.hpp"
#include "kopt/metric_names.hpp"

namespace kopt::analysis {

LaunchOverhead assess_launch_overhead(WorkFacts const& work) {
  LaunchOverhead out;
  std::optional<double> const call_us = known(work.median_us);
  std::optional<double> const kernel_us = known(work.kernel_us_per_call);
  if (work.launches_per_call && *work.launches_per_call > 0) out.launches = *work.launches_per_call;
  if (call_us && kernel_us && *call_us > 0.0)
    out.idle_fraction = std::clamp(1.0 - *kernel_us / *call_us, 0.0, 1.0);
  out.mean_kernel_us = ratio(kernel_us ? kernel_us : call_us, out.launches);

  bool const many_tiny =
      out.launches && *out.launches >= 2.0 && out.mean_kernel_us && *out.mean_kernel_us < tiny_kernel_us;
  if (out.idle_fraction) {
    out.bound = *out.idle_fraction >= launch_bound_idle_fraction;
    out.notable = out.bound || (out.launches && *out.launches >= 2.0 &&
                                *out.idle_fraction >= launch_notable_idle_fraction);
  } else {
    // Without kernel durations, many launches of tiny kernels are taken as launch-bound.
    out.bound = many_tiny;
    out.notable = many_tiny;
  }
  return out;
}

bool GridFill::small_or_short_tail() const noexcept {
  if (small) return true;
  return waves && *waves < 2.0 && tail_idle_fraction && *tail_idle_fraction >= small_grid_tail_idle_fraction;
}

GridFill assess_grid(Metrics const& metrics, WorkFacts const& work) {
  GridFill out;
  out.waves = lookup(metrics, metric::waves_per_sm);
  out.grid = lookup(metrics, metric::grid_size);
  if (!out.grid) out.grid = known(work.grid_blocks);
  out.sms = lookup(metrics, metric::sm_count);
  if (!out.sms) out.sms = known(work.sm_count);

  if (out.grid && out.sms && *out.grid > 0.0 && *out.grid < *out.sms) {
    out.small = true;
    out.idle_sm_fraction = (*out.sms - *out.grid) / *out.sms;
  }
  if (out.waves && *out.waves > 0.0) {
    if (*out.waves < 1.0) {
      out.small = true;
    } else {
      double const whole = std::floor(*out.waves);
      double const idle = 1.0 - *out.waves / std::ceil(*out.waves);
      out.tail_idle_fraction = idle;
      out.tail = 1.0 / (1.0 + whole) >= tail_min_estimate && idle >= tail_min_idle_fraction;
    }
  }
  return out;
}

}  // namespace kopt::analysis
