// The static findings of a compile-only check: the analysis tools that need no GPU, fed with ptxas's
// facts and the occupancy estimated from them (as the metrics Nsight Compute would report for it), so the
// findings read exactly as they do under `kopt profile`.
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>

#include "eval/static_facts.hpp"
#include "kopt/compile_check.hpp"
#include "kopt/metric_names.hpp"

namespace kopt {
namespace {

// What ncu would report for a launch with this estimate (theoretical occupancy and its limits).
Metrics occupancy_metrics(OccupancyEstimate const& estimate, ResourceUsage const& resources) {
  Metrics metrics;
  metrics.emplace(metric::theoretical_occupancy, estimate.occupancy_pct);
  metrics.emplace(metric::block_size, estimate.block_threads);
  if (resources.registers >= 0) metrics.emplace(metric::registers_per_thread, resources.registers);
  for (auto const& [name, blocks] : estimate.limits) {
    metrics.emplace("launch__occupancy_limit_" + name, blocks);
  }
  return metrics;
}

// Whether the source puts __launch_bounds__ on the kernel (or on any kernel: in a launcher with several,
// the aggregate cannot tell which one is meant).
bool has_launch_bounds(std::string const& source) {
  static RE2 const bounds(R"(__launch_bounds__\s*\()", RE2::Latin1);
  return RE2::PartialMatch(source, bounds);
}

std::optional<Finding> run_tool(std::string_view name, Metrics const& metrics, StaticFacts const& facts) {
  AnalysisTool const* tool = find_analysis_tool(name);
  if (tool == nullptr || tool->examine == nullptr) return std::nullopt;
  return tool->examine(metrics, facts, WorkFacts{});
}

std::string size_list(std::vector<std::string> const& sizes) {
  std::string text;
  for (auto const& size : sizes) text += (text.empty() ? "" : ", ") + size;
  return text;
}

}  // namespace

std::vector<Finding> static_findings(KernelCheck const& kernel, std::string const& source) {
  StaticFacts const facts = static_facts_of(kernel.resources);
  std::vector<Finding> findings;
  if (auto spills = run_tool("register_spills", Metrics{}, facts)) findings.push_back(std::move(*spills));

  auto const geometries = static_cast<std::size_t>(
      std::count_if(kernel.launches.begin(), kernel.launches.end(),
                    [](LaunchGeometryCheck const& launch) { return launch.occupancy.has_value(); }));
  for (LaunchGeometryCheck const& launch : kernel.launches) {
    if (!launch.occupancy || !launch.occupancy->problem.empty()) continue;
    OccupancyEstimate const& estimate = *launch.occupancy;
    auto finding = run_tool("occupancy", occupancy_metrics(estimate, kernel.resources), facts);
    if (!finding) continue;
    bool const by_registers = std::find(estimate.limited_by.begin(), estimate.limited_by.end(),
                                        "registers") != estimate.limited_by.end();
    if (by_registers && !has_launch_bounds(source)) {
      finding->explanation += fmt::format(
          " The kernel has no __launch_bounds__: ptxas chose {} registers per thread without knowing the "
          "block size; __launch_bounds__({}) (with a minimum of blocks per SM) lets it trade registers for "
          "occupancy.",
          kernel.resources.registers, estimate.block_threads);
    }
    if (geometries > 1)
      finding->explanation = "Sizes " + size_list(launch.sizes) + ": " + finding->explanation;
    findings.push_back(std::move(*finding));
  }
  std::stable_sort(findings.begin(), findings.end(), [](Finding const& a, Finding const& b) {
    return static_cast<int>(a.severity) > static_cast<int>(b.severity);
  });
  return findings;
}

}  // namespace kopt
