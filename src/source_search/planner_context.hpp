// Private to src/source_search: what the planner is shown about a source node: its kernel, its per-size
// medians and speedups, the insights' findings, the search memory's stats for the task family, its
// children's actions and outcomes (the siblings of the next edit), and its own failure when it failed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "kopt/llm_roles.hpp"
#include "kopt/run_log.hpp"
#include "source_search/run_evaluations.hpp"

namespace kopt::source_search_detail {

// A child of the node, as its siblings-to-be see it.
struct ChildOutcome {
  std::string label;  // "llm_edit: own_change", "strategy:softmax_warp_per_row"
  CandidateStatus status = CandidateStatus::ok;
  std::optional<double> speedup;
  std::string message;  // its failure
};

struct NodeFacts {
  std::string source;
  NodeTuning const* tuning = nullptr;  // the node's latest tuning (times, insights, errors)
  std::optional<double> speedup;
  std::vector<ChildOutcome> children;  // oldest first
};

// `base` (the task part) with the node's facts; siblings newest first, since the prompt budget cuts from
// the end. Memory lines only for source actions (llm_edit, strategy:*, deepen).
PromptContext planner_context(PromptContext base, NodeFacts const& node,
                              std::vector<MemoryPrior> const& memory, std::size_t findings_chars);

}  // namespace kopt::source_search_detail
