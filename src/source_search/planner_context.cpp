// planner_context: a source node as the planner prompt shows it.
#include "source_search/planner_context.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kopt/insight.hpp"

namespace kopt::source_search_detail {
namespace {

// What earlier runs of the task family learned about the source actions (the run's snapshot).
std::string memory_text(std::vector<MemoryPrior> const& memory) {
  std::string text;
  for (auto const& prior : memory) {
    bool const source_action =
        prior.action == "llm_edit" || prior.action == "deepen" || prior.action.rfind("strategy:", 0) == 0;
    if (!source_action || prior.tries <= 0) continue;
    text += fmt::format("- {}: tried {} times, mean reward gain {:+.3f}\n", prior.action, prior.tries,
                        prior.mean_gain);
  }
  if (text.empty()) return text;
  return "Search memory (earlier runs of this task family, gain in log speedup over the parent):\n" + text;
}

}  // namespace

PromptContext planner_context(PromptContext base, NodeFacts const& node,
                              std::vector<MemoryPrior> const& memory, std::size_t findings_chars) {
  PromptContext context = std::move(base);
  context.kernel_source = node.source;
  if (node.tuning != nullptr) {
    for (auto const& size : node.tuning->best_record.sizes) {
      if (!size.contains("median_us")) continue;
      PromptTiming timing;
      timing.size = size.value("size", "");
      timing.median_us = size.value("median_us", 0.0);
      if (size.contains("speedup")) timing.speedup = size.value("speedup", 0.0);
      context.times.push_back(std::move(timing));
    }
    context.findings = describe_for_prompt(node.tuning->best_record.insights, findings_chars);
    if (node.tuning->status != CandidateStatus::ok) context.errors = node.tuning->errors;
  }
  if (std::string const text = memory_text(memory); !text.empty()) {
    if (!context.findings.empty()) context.findings += "\n\n";
    context.findings += text;
  }
  for (ChildOutcome const& child : node.children) {
    std::string outcome;
    if (child.status == CandidateStatus::ok) {
      outcome = child.speedup ? fmt::format("correct, {:.2f}x the reference", *child.speedup) : "correct";
      if (node.speedup) outcome += fmt::format(" (this kernel: {:.2f}x)", *node.speedup);
    } else {
      outcome =
          fmt::format("{}: {}", to_string(child.status), child.message.substr(0, child.message.find('\n')));
    }
    context.siblings.push_back(SiblingOutcome{child.label, std::move(outcome)});
  }
  std::reverse(context.siblings.begin(), context.siblings.end());
  return context;
}

}  // namespace kopt::source_search_detail
