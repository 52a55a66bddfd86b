// Warp divergence: fewer than 24 of 32 threads active per executed instruction on average (ncu
// ThreadDivergence). The divergent test kernel on the H200 measured 16.75 (profiling.md §2).
#include <fmt/format.h>

#include <string>

#include "analysis/tool_support.hpp"
#include "kopt/metric_names.hpp"

namespace kopt::analysis {
namespace warp_divergence {

constexpr double kWarpSize = 32.0;
constexpr double kFlagBelowThreads = 24.0;
constexpr double kMediumBelowThreads = 20.0;
constexpr double kHighAtOrBelowThreads = 16.0;  // half of every warp idle

std::optional<Finding> examine(Metrics const& m, StaticFacts const& /*facts*/, WorkFacts const& /*work*/) {
  std::optional<double> const threads = lookup(m, metric::threads_per_instruction);
  if (!threads || *threads <= 0.0 || *threads >= kFlagBelowThreads) return std::nullopt;
  Finding finding;
  finding.tool = "warp_divergence";
  finding.severity = *threads <= kHighAtOrBelowThreads ? Severity::high
                     : *threads < kMediumBelowThreads  ? Severity::medium
                                                       : Severity::low;
  note(finding.evidence, metric::threads_per_instruction, threads);
  note(finding.evidence, metric::divergent_branch_targets, lookup(m, metric::divergent_branch_targets));
  std::optional<double> const uniform = lookup(m, metric::uniform_branch_targets_pct);
  note(finding.evidence, metric::uniform_branch_targets_pct, uniform);
  std::optional<double> divergent_fraction;
  if (uniform) divergent_fraction = (100.0 - *uniform) / 100.0;
  finding.explanation = fmt::format(
      "Warp divergence: on average only {:.1f} of {:.0f} threads are active per executed instruction (below "
      "{:.0f}), so {:.0f}% of the issued lanes do no work.",
      *threads, kWarpSize, kFlagBelowThreads, (1.0 - *threads / kWarpSize) * 100.0);
  if (divergent_fraction)
    finding.explanation +=
        fmt::format(" {:.0f}% of branch targets diverge within a warp.", *divergent_fraction * 100.0);
  finding.strategies = {std::string(strategy::reduce_divergence)};
  return finding;
}

}  // namespace warp_divergence

AnalysisTool make_warp_divergence_tool() {
  return AnalysisTool{
      .name = "warp_divergence",
      .description = "Threads of a warp taking different paths (active threads per instruction < 24).",
      .always = false,
      .triggers = {BottleneckClass::compute_bound, BottleneckClass::latency_bound, BottleneckClass::balanced},
      .metrics = {metric::threads_per_instruction, metric::divergent_branch_targets,
                  metric::uniform_branch_targets_pct},
      .examine = &warp_divergence::examine,
  };
}

}  // namespace kopt::analysis
