// Occupancy and its limiter. Triggers: theoretical occupancy < 80% of the maximum warps (ncu
// TheoreticalOccupancy; the limiter is the smallest launch__occupancy_limit_*), or achieved occupancy
// more than 10 points below theoretical (ncu AchievedOccupancy).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "analysis/tool_support.hpp"
#include "kopt/metric_names.hpp"

namespace kopt::analysis {
namespace occupancy {

constexpr double kTheoreticalFlagPct = 80.0;
constexpr double kTheoreticalMediumPct = 50.0;
constexpr double kTheoreticalHighPct = 25.0;
constexpr double kAchievedGapPoints = 10.0;
constexpr double kAchievedGapMediumPoints = 30.0;

struct Limiter {
  std::string_view name;  // the suffix of launch__occupancy_limit_<name>
  std::string_view metric_name;
  std::string_view words;
  std::string_view strategy_name;
};

constexpr std::array kLimiters{
    Limiter{"registers", metric::limit_registers, "registers per thread", strategy::reduce_register_pressure},
    Limiter{"shared_mem", metric::limit_shared_mem, "shared memory per block",
            strategy::reduce_shared_memory},
    Limiter{"blocks", metric::limit_blocks, "the limit on blocks per SM (blocks are small)",
            strategy::tune_block_size},
    Limiter{"warps", metric::limit_warps, "warps per SM (the block size does not divide the SM's warps)",
            strategy::tune_block_size},
    Limiter{"barriers", metric::limit_barriers, "barriers per SM", strategy::tune_block_size},
};

std::optional<Finding> examine(Metrics const& m, StaticFacts const& /*facts*/, WorkFacts const& /*work*/) {
  std::optional<double> const theoretical = lookup(m, metric::theoretical_occupancy);
  std::optional<double> const achieved = lookup(m, metric::achieved_occupancy);
  Finding finding;
  finding.tool = "occupancy";
  note(finding.evidence, metric::theoretical_occupancy, theoretical);
  note(finding.evidence, metric::achieved_occupancy, achieved);
  note(finding.evidence, metric::registers_per_thread, lookup(m, metric::registers_per_thread));
  note(finding.evidence, metric::block_size, lookup(m, metric::block_size));
  std::string text;

  if (theoretical && *theoretical < kTheoreticalFlagPct) {
    finding.severity = *theoretical < kTheoreticalHighPct     ? Severity::high
                       : *theoretical < kTheoreticalMediumPct ? Severity::medium
                                                              : Severity::low;
    // The limiter: the smallest number of blocks per SM among the known limits (ties: all of them).
    std::optional<double> smallest;
    for (Limiter const& limiter : kLimiters) {
      std::optional<double> const blocks = lookup(m, limiter.metric_name);
      note(finding.evidence, limiter.metric_name, blocks);
      if (blocks && (!smallest || *blocks < *smallest)) smallest = blocks;
    }
    text = fmt::format("Theoretical occupancy is {:.0f}% of the SM's warps (below {:.0f}%)", *theoretical,
                       kTheoreticalFlagPct);
    std::string limiters;
    for (Limiter const& limiter : kLimiters) {
      std::optional<double> const blocks = lookup(m, limiter.metric_name);
      if (!smallest || !blocks || *blocks != *smallest) continue;
      limiters +=
          fmt::format("{}{} ({:.0f} blocks per SM)", limiters.empty() ? "" : " and ", limiter.words, *blocks);
      std::string name(limiter.strategy_name);
      if (std::find(finding.strategies.begin(), finding.strategies.end(), name) == finding.strategies.end())
        finding.strategies.push_back(std::move(name));
    }
    text += limiters.empty() ? "." : fmt::format(", limited by {}.", limiters);
  }
  if (theoretical && achieved && *theoretical - *achieved > kAchievedGapPoints) {
    double const gap = *theoretical - *achieved;
    finding.severity =
        max_severity(finding.severity, gap >= kAchievedGapMediumPoints ? Severity::medium : Severity::low);
    note(finding.evidence, "derived.occupancy_gap_points", gap);
    text += fmt::format(
        "{}Achieved occupancy ({:.0f}%) is {:.0f} points below theoretical ({:.0f}%): warps finish unevenly "
        "or "
        "the grid leaves SMs short of blocks.",
        text.empty() ? "" : " ", *achieved, gap, *theoretical);
    finding.strategies.emplace_back(strategy::balance_workload);
  }
  if (text.empty()) return std::nullopt;
  finding.explanation = "Occupancy: " + text;
  return finding;
}

}  // namespace occupancy

AnalysisTool make_occupancy_tool() {
  return AnalysisTool{
      .name = "occupancy",
      .description = "Theoretical occupancy and the resource that limits it; achieved vs theoretical.",
      .always = false,
      .triggers = {BottleneckClass::latency_bound, BottleneckClass::balanced},
      .metrics = {metric::theoretical_occupancy, metric::achieved_occupancy, metric::limit_registers,
                  metric::limit_shared_mem, metric::limit_blocks, metric::limit_warps, metric::limit_barriers,
                  metric::registers_per_thread, metric::block_size},
      .examine = &occupancy::examine,
  };
}

}  // namespace kopt::analysis
