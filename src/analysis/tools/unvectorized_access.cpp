// Unvectorized global access in memory-bound kernels. Triggered by memory_bound; reads the SASS: global
// loads (or stores) exist but none is 128-bit (LDG.E.128 / STG.E.128; profiling.md §6 and §8).
#include <fmt/format.h>

#include <array>
#include <string>

#include "analysis/tool_support.hpp"

namespace kopt::analysis {
namespace unvectorized_access {

struct Widths {
  std::string_view label;
  std::optional<int> w128;
  std::optional<int> w64;
  std::optional<int> w32;
};

std::optional<Finding> examine(Metrics const& /*metrics*/, StaticFacts const& facts,
                               WorkFacts const& /*work*/) {
  std::array<Widths, 2> const kinds{{
      {"loads", facts.global_loads_128, facts.global_loads_64, facts.global_loads_32},
      {"stores", facts.global_stores_128, facts.global_stores_64, facts.global_stores_32},
  }};
  Finding finding;
  finding.tool = "unvectorized_access";
  std::string details;
  for (Widths const& w : kinds) {
    if (!w.w128 || *w.w128 > 0) continue;  // unknown, or some 128-bit access exists
    int const narrow64 = w.w64.value_or(0);
    int const narrow32 = w.w32.value_or(0);
    if (narrow64 + narrow32 == 0) continue;
    finding.severity = max_severity(finding.severity, narrow32 > 0 ? Severity::medium : Severity::low);
    if (!details.empty()) details += "; ";
    details += fmt::format("global {}: {} 32-bit and {} 64-bit, no 128-bit", w.label, narrow32, narrow64);
    std::string const key(w.label);
    finding.evidence.insert_or_assign("static.global_" + key + "_32", static_cast<double>(narrow32));
    finding.evidence.insert_or_assign("static.global_" + key + "_64", static_cast<double>(narrow64));
    finding.evidence.insert_or_assign("static.global_" + key + "_128", 0.0);
  }
  if (details.empty()) return std::nullopt;
  finding.explanation = fmt::format(
      "Unvectorized memory access in a memory-bound kernel ({}). Narrow accesses need more load/store "
      "instructions per byte; 128-bit accesses move the same bytes with a quarter of the 32-bit "
      "instructions.",
      details);
  finding.strategies = {std::string(strategy::vectorize_global_access)};
  return finding;
}

}  // namespace unvectorized_access

AnalysisTool make_unvectorized_access_tool() {
  return AnalysisTool{
      .name = "unvectorized_access",
      .description = "Memory-bound kernels whose SASS has no 128-bit global loads or stores.",
      .always = false,
      .triggers = {BottleneckClass::memory_bound},
      .metrics = {},
      .examine = &unvectorized_access::examine,
  };
}

}  // namespace kopt::analysis
