// Stage 2: which metrics to collect for a class, and running the triggered tools.
#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "kopt/analysis.hpp"
#include "kopt/metric_names.hpp"

namespace kopt {

bool AnalysisTool::triggered_by(BottleneckClass bottleneck) const noexcept {
  return always || std::find(triggers.begin(), triggers.end(), bottleneck) != triggers.end();
}

AnalysisTool const* find_analysis_tool(std::string_view name) {
  for (AnalysisTool const& tool : analysis_tools())
    if (tool.name == name) return &tool;
  return nullptr;
}

std::vector<std::string> stage1_metrics() {
  std::set<std::string, std::less<>> names;
  for (std::string_view name : {metric::sm_throughput,
                                metric::memory_throughput,
                                metric::dram_throughput,
                                metric::l2_throughput,
                                metric::l1_throughput,
                                metric::duration_ns,
                                metric::dram_bytes_read,
                                metric::dram_bytes_write,
                                metric::waves_per_sm,
                                metric::grid_size,
                                metric::block_size,
                                metric::sm_count,
                                metric::registers_per_thread,
                                metric::shared_static,
                                metric::shared_dynamic,
                                metric::achieved_occupancy,
                                metric::theoretical_occupancy,
                                metric::limit_registers,
                                metric::limit_shared_mem,
                                metric::limit_blocks,
                                metric::limit_warps,
                                metric::limit_barriers})
    names.emplace(name);
  return {names.begin(), names.end()};
}

std::vector<std::string> stage2_metrics(BottleneckClass bottleneck) {
  std::set<std::string, std::less<>> names;
  for (AnalysisTool const& tool : analysis_tools())
    if (tool.triggered_by(bottleneck))
      for (std::string_view name : tool.metrics) names.emplace(name);
  return {names.begin(), names.end()};
}

std::vector<Finding> analyze(Classification const& classification, Metrics const& metrics,
                             StaticFacts const& facts, WorkFacts const& work) {
  std::vector<Finding> findings;
  for (AnalysisTool const& tool : analysis_tools()) {
    if (!tool.triggered_by(classification.bottleneck)) continue;
    if (tool.examine == nullptr)
      throw std::logic_error("analysis tool without examine: " + std::string(tool.name));
    if (std::optional<Finding> finding = tool.examine(metrics, facts, work))
      findings.push_back(std::move(*finding));
  }
  std::stable_sort(findings.begin(), findings.end(), [](Finding const& a, Finding const& b) {
    return static_cast<int>(a.severity) > static_cast<int>(b.severity);
  });
  return findings;
}

}  // namespace kopt
