// Shared-memory bank conflicts: one shared access instruction needs several wavefronts because threads
// hit the same bank. Trigger: conflicts / wavefronts >= 10%, loads and stores separately (ncu
// SharedMemoryConflicts). n-way = wavefronts / instructions (profiling.md §2).
#include <fmt/format.h>

#include <array>
#include <string>

#include "analysis/tool_support.hpp"
#include "kopt/metric_names.hpp"

namespace kopt::analysis {
namespace shared_bank_conflicts {

constexpr double kFlagConflictFraction = 0.10;
constexpr double kMediumConflictFraction = 0.25;
constexpr double kHighConflictFraction = 0.50;
constexpr double kHighNWay = 8.0;

struct Direction {
  std::string_view label;
  std::optional<double> conflicts;
  std::optional<double> wavefronts;
  std::optional<double> instructions;
};

std::optional<Finding> examine(Metrics const& m, StaticFacts const& /*facts*/, WorkFacts const& /*work*/) {
  std::array<Direction, 2> const directions{{
      {"loads", lookup(m, metric::shared_ld_conflicts), lookup(m, metric::shared_ld_wavefronts),
       lookup(m, metric::shared_ld_instructions)},
      {"stores", lookup(m, metric::shared_st_conflicts), lookup(m, metric::shared_st_wavefronts),
       lookup(m, metric::shared_st_instructions)},
  }};
  Finding finding;
  finding.tool = "shared_bank_conflicts";
  std::string details;
  for (Direction const& d : directions) {
    std::optional<double> const fraction = ratio(d.conflicts, d.wavefronts);
    std::optional<double> const n_way = ratio(d.wavefronts, d.instructions);
    std::string const key(d.label);
    note(finding.evidence, "derived.shared_" + key + "_conflict_fraction", fraction);
    note(finding.evidence, "derived.shared_" + key + "_n_way", n_way);
    if (!fraction || *fraction < kFlagConflictFraction) continue;
    Severity severity = Severity::low;
    if (*fraction >= kHighConflictFraction || (n_way && *n_way >= kHighNWay)) {
      severity = Severity::high;
    } else if (*fraction >= kMediumConflictFraction) {
      severity = Severity::medium;
    }
    finding.severity = max_severity(finding.severity, severity);
    if (!details.empty()) details += "; ";
    details += fmt::format("shared {}: {:.0f} of {:.0f} wavefronts ({:.0f}%) are bank conflicts", d.label,
                           *d.conflicts, *d.wavefronts, *fraction * 100.0);
    if (n_way) details += fmt::format(", about {:.1f}-way", *n_way);
  }
  if (details.empty()) return std::nullopt;
  finding.explanation = fmt::format(
      "Shared-memory bank conflicts: {}. Threads of a warp address the same bank, so each access is "
      "replayed serially.",
      details);
  finding.strategies = {std::string(strategy::pad_shared_memory),
                        std::string(strategy::swizzle_shared_memory)};
  return finding;
}

}  // namespace shared_bank_conflicts

AnalysisTool make_shared_bank_conflicts_tool() {
  return AnalysisTool{
      .name = "shared_bank_conflicts",
      .description = "Shared-memory accesses serialised by bank conflicts (n-way = wavefronts / requests).",
      .always = false,
      .triggers = {BottleneckClass::memory_bound, BottleneckClass::compute_bound,
                   BottleneckClass::latency_bound, BottleneckClass::balanced},
      .metrics = {metric::shared_ld_conflicts, metric::shared_st_conflicts, metric::shared_ld_wavefronts,
                  metric::shared_st_wavefronts, metric::shared_ld_instructions,
                  metric::shared_st_instructions},
      .examine = &shared_bank_conflicts::examine,
  };
}

}  // namespace kopt::analysis
