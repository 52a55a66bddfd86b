// Incumbent guardrail: no slower on any size beyond noise, and faster overall.
#include <algorithm>

#include "kopt/search.hpp"

namespace kopt {

bool improves_on(Outcome const& candidate, Outcome const& incumbent, GuardrailConfig const& config) {
  auto const candidate_speedup = geomean_speedup(candidate);
  if (!candidate_speedup) return false;
  auto const incumbent_speedup = geomean_speedup(incumbent);
  if (!incumbent_speedup) return true;  // anything ok beats a non-ok incumbent
  auto const sizes = candidate.size_medians_us.size();
  if (incumbent.size_medians_us.size() != sizes) return false;  // not comparable
  for (std::size_t i = 0; i < sizes; ++i) {
    double const candidate_iqr = candidate.size_iqr_us.empty() ? 0.0 : candidate.size_iqr_us[i];
    double const incumbent_iqr = incumbent.size_iqr_us.empty() ? 0.0 : incumbent.size_iqr_us[i];
    double const noise = std::max((candidate_iqr + incumbent_iqr) / 2.0,
                                  config.min_relative_noise * incumbent.size_medians_us[i]);
    if (candidate.size_medians_us[i] - noise > incumbent.size_medians_us[i]) return false;
  }
  return *candidate_speedup > *incumbent_speedup;
}

}  // namespace kopt
