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
    policy.warmup_ms = 2.0;
    policy.min_warmup_calls = 3;
    policy.min_samples = 10;
    policy.min_total_ms = 5.0;
    policy.max_wall_ms = 500.0;
    policy.flush_l2 = true;
    policy.interleave = false;
    policy.graph_below_us = 0.0;  // never time by graph replay
  }
  return policy;
}

bool sampling_done(TimingPolicy const& policy, int samples, double total_sample_ms, double wall_ms) noexcept {
  if (samples >= policy.min_samples && total_sample_ms >= policy.min_total_ms) return true;
  if (samples >= policy.max_samples) return true;
  // Out of wall-clock budget: stop, but never with no sample at all.
  return samples > 0 && wall_ms >= policy.max_wall_ms;
}

}  // namespace kopt
