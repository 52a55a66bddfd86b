#include <algorithm>
#include <cmath>

#include "kopt/measure.hpp"

namespace kopt {

std::string_view to_string(TimingTier tier) noexcept {
  switch (tier) {
    case TimingTier::screen: return "screen";
    case TimingTier::confirm: return "confirm";
  }
  return "unknown";
}

std::optional<TimingTier> timing_tier_from_string(std::string_view text) noexcept {
  if (text == "screen") return TimingTier::screen;
  if (text == "confirm") return TimingTier::confirm;
  return std::nullopt;
}

TimingPolicy policy_for(TimingTier tier) noexcept {
  TimingPolicy policy;  // the header defaults are the confirm protocol
  if (tier == TimingTier::screen) {
    policy.warmup_ms = 0.5;
    policy.min_warmup_calls = 2;  // verification has just run the kernel on this size: it is loaded and warm
    policy.min_samples = 5;       // long kernels: 5 flushed samples rank them; short ones sample for 5 ms
    policy.race_ratio = 1.5;      // clear losers stop after 2 samples
    policy.min_total_ms = 5.0;
    policy.median_precision = 0.01;  // ... or until their median is known to 1 % (docs/timing.md)
    policy.max_wall_ms = 500.0;
    policy.flush_l2 = true;
    policy.interleave = false;
    policy.graph_below_us = 0.0;  // never time by graph replay
  }
  return policy;
}

bool clearly_slower(TimingPolicy const& policy, std::span<double const> samples_us, double best_us) noexcept {
  if (policy.race_ratio <= 0.0 || best_us <= 0.0) return false;
  if (samples_us.empty() || static_cast<int>(samples_us.size()) < policy.race_samples) return false;
  return *std::min_element(samples_us.begin(), samples_us.end()) > policy.race_ratio * best_us;
}

bool precise_enough(TimingPolicy const& policy, std::span<double const> samples_us) {
  if (policy.median_precision <= 0.0) return false;
  auto const n = static_cast<int>(samples_us.size());
  if (n < std::max(policy.min_samples, policy.precision_min_samples)) return false;
  SampleStats const stats = summarize(samples_us);
  return stats.median > 0 &&
         1.57 * stats.iqr() / std::sqrt(static_cast<double>(n)) <= policy.median_precision * stats.median;
}

bool sampling_done(TimingPolicy const& policy, int samples, double total_sample_ms, double wall_ms) noexcept {
  if (samples >= policy.min_samples && total_sample_ms >= policy.min_total_ms) return true;
  if (samples >= policy.max_samples) return true;
  // Out of wall-clock budget: stop, but never with no sample at all.
  return samples > 0 && wall_ms >= policy.max_wall_ms;
}

}  // namespace kopt
