// The registry of micro-profiling tools: the one place to touch when adding a tool. Each tool lives in
// src/analysis/tools/<name>.cpp, keeps its helpers in namespace kopt::analysis::<name> (named, not
// anonymous, so that the tools can share a unity build) and defines make_<name>_tool(); list it here once.
#include <vector>

#include "kopt/analysis.hpp"

namespace kopt::analysis {

AnalysisTool make_uncoalesced_global_access_tool();
AnalysisTool make_shared_bank_conflicts_tool();
AnalysisTool make_occupancy_tool();
AnalysisTool make_register_spills_tool();
AnalysisTool make_warp_divergence_tool();
AnalysisTool make_tail_effect_tool();
AnalysisTool make_missing_tensor_cores_tool();
AnalysisTool make_unvectorized_access_tool();
AnalysisTool make_latency_stalls_tool();
AnalysisTool make_sync_contention_tool();
AnalysisTool make_launch_overhead_tool();

}  // namespace kopt::analysis

namespace kopt {

std::span<AnalysisTool const> analysis_tools() {
  static std::vector<AnalysisTool> const tools{
      analysis::make_uncoalesced_global_access_tool(),
      analysis::make_shared_bank_conflicts_tool(),
      analysis::make_occupancy_tool(),
      analysis::make_register_spills_tool(),
      analysis::make_warp_divergence_tool(),
      analysis::make_tail_effect_tool(),
      analysis::make_missing_tensor_cores_tool(),
      analysis::make_unvectorized_access_tool(),
      analysis::make_latency_stalls_tool(),
      analysis::make_sync_contention_tool(),
      analysis::make_launch_overhead_tool(),
  };
  return tools;
}

}  // namespace kopt
