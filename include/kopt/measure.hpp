// Timing statistics, the sampling policy of each timing tier, and speed-of-light bounds.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace kopt {

struct SampleStats {
  int count = 0;
  double median = 0.0;
  double min = 0.0;
  double max = 0.0;
  double mean = 0.0;
  double q1 = 0.0;  // 25th percentile (linear interpolation)
  double q3 = 0.0;  // 75th percentile
  double iqr() const noexcept { return q3 - q1; }
  // Relative spread: IQR / median (0 when median is 0).
  double relative_spread() const noexcept { return median > 0 ? (q3 - q1) / median : 0.0; }
};

SampleStats summarize(std::span<double const> samples);

// screen: cheap timing for search throughput; confirm: the full protocol (docs/timing.md).
enum class TimingTier { screen, confirm };
std::string_view to_string(TimingTier tier) noexcept;
std::optional<TimingTier> timing_tier_from_string(std::string_view text) noexcept;

struct TimingPolicy {
  double warmup_ms = 25.0;  // minimum warm-up duration per kernel
  int min_warmup_calls = 3;
  int min_samples = 10;         // samples per kernel
  double min_total_ms = 100.0;  // and at least this much summed sample time per kernel
  int max_samples = 10000;
  double max_wall_ms = 5000.0;   // stop sampling a size case after this much wall time
  bool flush_l2 = true;          // flush L2 between samples
  bool interleave = true;        // ABAB: reference and candidate samples alternate
  double graph_below_us = 10.0;  // also time by CUDA-graph replay when median is under this
  int graph_calls = 20;          // launches per captured graph
  // Racing (screen): a candidate whose fastest sample after `race_samples` samples is more than
  // `race_ratio` times the fastest candidate median screened so far on the size stops sampling; it
  // cannot be the best (0: never stop early).
  double race_ratio = 0.0;
  int race_samples = 2;
  // Precision (screen): sampling may also stop once the median is known to this fraction, i.e. the
  // half-width of its 95% confidence interval, 1.57 * IQR / sqrt(n) (McGill, Tukey and Larsen's notch),
  // is at most median_precision * median, after at least precision_min_samples samples (0: never).
  double median_precision = 0.0;
  int precision_min_samples = 10;
};

TimingPolicy policy_for(TimingTier tier) noexcept;

// Whether sampling may stop: enough samples and enough measured time, or out of budget.
bool sampling_done(TimingPolicy const& policy, int samples, double total_sample_ms, double wall_ms) noexcept;

// Whether the samples pin their median down to policy.median_precision (see TimingPolicy).
bool precise_enough(TimingPolicy const& policy, std::span<double const> samples_us);

// Whether a candidate's sampling may stop early because it is clearly slower than `best_us` (the
// fastest candidate median seen on this size; <= 0: none yet): policy.race_ratio is set, it has
// race_samples samples, and even its fastest one exceeds race_ratio * best_us.
bool clearly_slower(TimingPolicy const& policy, std::span<double const> samples_us, double best_us) noexcept;

// What the device can do at most; used for the speed-of-light bound and % of roofline.
struct DeviceCeilings {
  double dram_bytes_per_s = 0.0;    // measured device-to-device copy bandwidth (read + write)
  double fp32_flops_per_s = 0.0;    // FFMA peak
  double tensor_flops_per_s = 0.0;  // dense 16-bit tensor-core peak (0 when unknown)
};

struct SpeedOfLight {
  double memory_us = 0.0;
  double compute_us = 0.0;
  double bound_us() const noexcept { return memory_us > compute_us ? memory_us : compute_us; }
};

// Lower bound on runtime from the task's work model. `flops` use the highest peak the chip has
// for the task's precision (tensor cores count), so honest kernels never fall below it.
SpeedOfLight speed_of_light(std::optional<double> bytes, std::optional<double> flops,
                            DeviceCeilings const& ceilings, bool tensor_cores_allowed);

// A candidate is implausibly fast when its median is below bound / slack (default slack 1.15,
// covering L2 residency of small outputs and measurement noise; docs/verification.md).
bool implausibly_fast(double median_us, SpeedOfLight const& sol, double slack = 1.15) noexcept;

// Watchdog deadline for one candidate call: clamp(factor * reference_us, floor, ceiling).
double watchdog_deadline_ms(double reference_us, double factor, double floor_ms, double ceiling_ms) noexcept;

}  // namespace kopt
