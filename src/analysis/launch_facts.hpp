// Launch-level facts shared by the classifier and the tools: how much of a call is launch gaps, and how
// well the grid fills the SMs (waves, tail). Thresholds and their sources are in docs/analysis.md.
#pragma once

#include <optional>

#include "kopt/analysis.hpp"

namespace kopt::analysis {

// A kernel under this many microseconds is comparable to the cost of launching it (a launch costs a few
// microseconds: NVIDIA, "Getting Started with CUDA Graphs"; the "< 5 us kernels").
inline constexpr double tiny_kernel_us = 5.0;
// Launch gaps (call time not covered by kernels) at or above this fraction make the call
// launch-overhead-bound (ours: more than half of the call is not kernel work).
inline constexpr double launch_bound_idle_fraction = 0.5;
// Gaps at or above this fraction are worth a finding (ours; mirrors ncu's 20% display threshold).
inline constexpr double launch_notable_idle_fraction = 0.2;

struct LaunchOverhead {
  std::optional<double> launches;        // per call
  std::optional<double> mean_kernel_us;  // kernel time (or call time when unknown) per launch
  std::optional<double> idle_fraction;   // 1 - kernel time / call time
  bool bound = false;                    // the call is launch-overhead-bound
  bool notable = false;                  // worth a finding even if not bound
};

LaunchOverhead assess_launch_overhead(WorkFacts const& work);

// ncu LaunchConfiguration: a tail is reported when its estimate 1 / (1 + whole waves) is at least 20%.
inline constexpr double tail_min_estimate = 0.2;
// Ours: ignore tails that leave under 5% of the SM-time idle (a last wave that is almost full).
inline constexpr double tail_min_idle_fraction = 0.05;
// Ours: one whole wave plus a last wave at most half full (>= 25% of SM-time idle) is a small grid.
inline constexpr double small_grid_tail_idle_fraction = 0.25;

struct GridFill {
  std::optional<double> waves;               // launch__waves_per_multiprocessor
  std::optional<double> grid;                // blocks
  std::optional<double> sms;                 // SMs on the device
  std::optional<double> idle_sm_fraction;    // grid < SMs: (SMs - grid) / SMs
  std::optional<double> tail_idle_fraction;  // waves >= 1: 1 - waves / ceil(waves)
  bool small = false;                        // waves < 1 or grid < SMs
  bool tail = false;                         // a partial last wave that ncu would report and that idles >= 5%
  // small, or one whole wave plus a last wave at most half full: the classifier's small_grid
  bool small_or_short_tail() const noexcept;
};

GridFill assess_grid(Metrics const& metrics, WorkFacts const& work);

}  // namespace kopt::analysis
