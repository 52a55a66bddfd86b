// Tail effect and small grids. Always on (launch metrics or the grid from WorkFacts). Triggers: a grid
// with fewer blocks than SMs (ncu LaunchConfiguration "Small Grid", estimate (SMs - grid) / SMs), fewer
// than one wave (SOLBottleneck's waves < 1), or a partial last wave that ncu's tail rule would report
// (1 / (1 + whole waves) >= 20%) and that idles at least 5% of the SM-time (ours).
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "analysis/launch_facts.hpp"
#include "analysis/tool_support.hpp"
#include "kopt/metric_names.hpp"

namespace kopt::analysis {
namespace tail_effect {

constexpr double kHighIdle = 0.5;
constexpr double kMediumIdle = 0.2;
constexpr double kUnderfilledMediumWaves = 0.5;  // ours: blocks fill under half of the SMs' slots

Severity idle_severity(double idle) {
  if (idle >= kHighIdle) return Severity::high;
  if (idle >= kMediumIdle) return Severity::medium;
  return Severity::low;
}

std::optional<Finding> examine(Metrics const& m, StaticFacts const& /*facts*/, WorkFacts const& work) {
  GridFill const grid = assess_grid(m, work);
  if (!grid.small && !grid.tail) return std::nullopt;
  Finding finding;
  finding.tool = "tail_effect";
  note(finding.evidence, metric::waves_per_sm, grid.waves);
  note(finding.evidence, "derived.grid_blocks", grid.grid);
  note(finding.evidence, "derived.sm_count", grid.sms);
  note(finding.evidence, "derived.idle_sm_fraction", grid.idle_sm_fraction);
  note(finding.evidence, "derived.tail_idle_fraction", grid.tail_idle_fraction);

  if (grid.idle_sm_fraction) {
    finding.severity = idle_severity(*grid.idle_sm_fraction);
    finding.explanation = fmt::format(
        "Small grid: {:.0f} blocks for {:.0f} SMs leave {:.0f}% of the SMs without work for the whole "
        "kernel.",
        *grid.grid, *grid.sms, *grid.idle_sm_fraction * 100.0);
    finding.strategies = {std::string(strategy::increase_parallelism)};
  } else if (grid.small) {
    finding.severity = *grid.waves < kUnderfilledMediumWaves ? Severity::medium : Severity::low;
    finding.explanation = fmt::format(
        "Small grid: {:.2f} waves per SM; every SM gets fewer blocks than it can hold at once, so fewer "
        "warps "
        "are available to hide latency.",
        *grid.waves);
    finding.strategies = {std::string(strategy::increase_parallelism),
                          std::string(strategy::tune_block_size)};
  } else {
    double const whole = std::floor(*grid.waves);
    finding.severity = idle_severity(*grid.tail_idle_fraction);
    finding.explanation = fmt::format(
        "Tail effect: {:.2f} waves per SM; after {:.0f} full wave{} the last partial wave keeps only part of "
        "the "
        "GPU busy, idling about {:.0f}% of the SM-time (ncu's upper estimate: {:.0f}%).",
        *grid.waves, whole, whole == 1.0 ? "" : "s", *grid.tail_idle_fraction * 100.0, 100.0 / (1.0 + whole));
    finding.strategies = {std::string(strategy::tune_block_size),
                          std::string(strategy::increase_parallelism)};
  }
  return finding;
}

}  // namespace tail_effect

AnalysisTool make_tail_effect_tool() {
  return AnalysisTool{
      .name = "tail_effect",
      .description = "Grids smaller than the GPU and partial last waves.",
      .always = true,
      .triggers = {},
      .metrics = {metric::waves_per_sm, metric::grid_size, metric::sm_count, metric::block_size},
      .examine = &tail_effect::examine,
  };
}

}  // namespace kopt::analysis
