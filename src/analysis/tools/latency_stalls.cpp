// Latency-bound stalls and low ILP. Each stall reason is compared with the average warp latency per
// issued instruction; a reason above 30% of it while the scheduler issues in under 80% of cycles is
// reported (ncu CPIStall), with issue activity < 0.6 per cycle as low utilisation (ncu
// IssueSlotUtilization). barrier and membar belong to sync_contention; not_selected and selected are not
// stalls that cost issue slots.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "analysis/tool_support.hpp"
#include "kopt/metric_names.hpp"

namespace kopt::analysis {
namespace latency_stalls {

constexpr double kReasonFraction = 0.3;      // CPIStall: stall / total > 0.3
constexpr double kIssueActiveCeiling = 0.8;  // CPIStall: only while issue_active < 0.8
constexpr double kLowIssueActive = 0.6;      // IssueSlotUtilization
constexpr double kHighReasonFraction = 0.5;  // ours: one reason is most of the latency

struct Reason {
  std::string_view name;
  std::string_view words;
  std::string_view strategy_name;
};

constexpr std::array kReasons{
    Reason{"long_scoreboard", "waiting on global/local memory (L1TEX) results", strategy::use_async_copy},
    Reason{"short_scoreboard", "waiting on shared memory or special-function results",
           strategy::increase_ilp},
    Reason{"wait", "fixed-latency dependencies between instructions", strategy::increase_ilp},
    Reason{"mio_throttle", "a full memory-input/output queue (shared memory, special math)",
           strategy::vectorize_shared_access},
    Reason{"lg_throttle", "a full local/global memory queue (too many narrow memory instructions)",
           strategy::vectorize_global_access},
    Reason{"tex_throttle", "a full texture/L1TEX queue", strategy::vectorize_global_access},
    Reason{"math_pipe_throttle", "a busy math pipe", strategy::reduce_instruction_count},
    Reason{"branch_resolving", "branch targets being resolved", strategy::reduce_divergence},
    Reason{"dispatch_stall", "the dispatcher", strategy::reduce_instruction_count},
    Reason{"no_instruction", "instruction fetch (instruction cache misses)",
           strategy::reduce_instruction_count},
    Reason{"imc_miss", "immediate constant cache misses", strategy::reduce_instruction_count},
    Reason{"drain", "memory writes draining at exit", strategy::coalesce_global_access},
    Reason{"sleeping", "sleeping or yielded warps", strategy::reduce_synchronization},
    Reason{"gmma", "warpgroup MMA (wgmma) dependencies", strategy::use_async_copy},
    Reason{"misc", "miscellaneous hardware reasons", strategy::increase_ilp},
};

std::optional<Finding> examine(Metrics const& m, StaticFacts const& facts, WorkFacts const& /*work*/) {
  std::optional<double> const issue = lookup(m, metric::issue_active);
  std::optional<double> const latency = lookup(m, metric::warp_latency_per_issue);
  if (!issue || !latency || !(*latency > 0.0) || *issue >= kIssueActiveCeiling) return std::nullopt;

  struct Hit {
    Reason const* reason;
    double cycles;
    double fraction;
  };
  std::vector<Hit> hits;
  Finding finding;
  finding.tool = "latency_stalls";
  for (Reason const& reason : kReasons) {
    std::string const name = stall_metric(reason.name);
    std::optional<double> const cycles = lookup(m, name);
    if (!cycles) continue;
    double const fraction = *cycles / *latency;
    if (fraction > kReasonFraction) {
      hits.push_back(Hit{&reason, *cycles, fraction});
      note(finding.evidence, name, cycles);
    }
  }
  if (hits.empty()) return std::nullopt;
  std::stable_sort(hits.begin(), hits.end(),
                   [](Hit const& a, Hit const& b) { return a.fraction > b.fraction; });

  note(finding.evidence, metric::issue_active, issue);
  note(finding.evidence, metric::warp_latency_per_issue, latency);
  bool const low_issue = *issue < kLowIssueActive;
  finding.severity = low_issue
                         ? (hits.front().fraction >= kHighReasonFraction ? Severity::high : Severity::medium)
                         : Severity::low;
  // Waiting on the memory queues in a kernel with atomics: sync_contention explains the cause, so this
  // symptom is not raised to high as well.
  std::string_view const top = hits.front().reason->name;
  if (facts.atomics.value_or(0) > 0 && (top == "drain" || top == "lg_throttle" || top == "long_scoreboard"))
    finding.severity = std::min(finding.severity, Severity::medium);
  std::string reasons;
  for (Hit const& hit : hits) {
    reasons +=
        fmt::format("{}{} ({:.1f} of {:.1f} cycles between issues, {:.0f}%: {})", reasons.empty() ? "" : "; ",
                    hit.reason->name, hit.cycles, *latency, hit.fraction * 100.0, hit.reason->words);
    std::string name(hit.reason->strategy_name);
    if (std::find(finding.strategies.begin(), finding.strategies.end(), name) == finding.strategies.end())
      finding.strategies.push_back(std::move(name));
  }
  if (std::find(finding.strategies.begin(), finding.strategies.end(), strategy::increase_ilp) ==
      finding.strategies.end())
    finding.strategies.emplace_back(strategy::increase_ilp);
  finding.explanation = fmt::format(
      "Latency stalls: the scheduler issues an instruction in {:.0f}% of cycles{}; warps mostly wait on {}.",
      *issue * 100.0, low_issue ? " (low: below 60%)" : "", reasons);
  return finding;
}

// The stall metric names, kept for the program's lifetime (AnalysisTool::metrics holds views).
std::vector<std::string> const& stall_metric_names() {
  static std::vector<std::string> const names = [] {
    std::vector<std::string> out;
    out.reserve(kReasons.size());
    for (Reason const& reason : kReasons) out.push_back(stall_metric(reason.name));
    return out;
  }();
  return names;
}

}  // namespace latency_stalls

AnalysisTool make_latency_stalls_tool() {
  std::vector<std::string_view> metrics{metric::issue_active, metric::warp_latency_per_issue};
  for (std::string const& name : latency_stalls::stall_metric_names()) metrics.emplace_back(name);
  return AnalysisTool{
      .name = "latency_stalls",
      .description = "Dominant warp stall reasons and low issue activity (too little ILP to hide latency).",
      .always = false,
      .triggers = {BottleneckClass::latency_bound, BottleneckClass::balanced},
      .metrics = std::move(metrics),
      .examine = &latency_stalls::examine,
  };
}

}  // namespace kopt::analysis
