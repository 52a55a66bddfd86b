// Atomics and synchronisation contention. Always on (SASS counts). Triggers: barrier or membar stalls
// above 30% of the average warp latency per issued instruction (the CPIStall threshold), or atomics in
// the SASS; atomics become medium when memory-queue stalls (lg_throttle, long_scoreboard) are above 30%
// as well, info otherwise (an atomic alone says nothing about contention).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "analysis/tool_support.hpp"
#include "kopt/metric_names.hpp"

namespace kopt::analysis {
namespace sync_contention {

constexpr double kStallFraction = 0.3;
constexpr double kHighStallFraction = 0.5;

constexpr std::string_view kBarrier = "barrier";
constexpr std::string_view kMembar = "membar";
// drain: warps wait at exit for their fire-and-forget reductions (RED) to leave.
constexpr std::array<std::string_view, 3> kMemoryQueueReasons{"lg_throttle", "long_scoreboard", "drain"};
// ours: one L2 slice's atomic unit ten times busier than the average slice means the atomics hit
// few addresses (the H200 hot-spot kernel: 33% vs 0.35%).
constexpr double kHotSliceRatio = 10.0;
constexpr double kHotSliceMinPct = 5.0;

std::vector<std::string> const& metric_names() {
  static std::vector<std::string> const names = [] {
    std::vector<std::string> out{stall_metric(kBarrier), stall_metric(kMembar)};
    for (std::string_view reason : kMemoryQueueReasons) out.push_back(stall_metric(reason));
    return out;
  }();
  return names;
}

void add_strategy(Finding& finding, std::string_view name) {
  if (std::find(finding.strategies.begin(), finding.strategies.end(), name) == finding.strategies.end())
    finding.strategies.emplace_back(name);
}

std::optional<Finding> examine(Metrics const& m, StaticFacts const& facts, WorkFacts const& /*work*/) {
  std::optional<double> const latency = lookup(m, metric::warp_latency_per_issue);
  auto fraction_of = [&](std::string_view reason) { return ratio(lookup(m, stall_metric(reason)), latency); };
  std::optional<double> const barrier = fraction_of(kBarrier);
  std::optional<double> const membar = fraction_of(kMembar);
  std::optional<double> queue;
  for (std::string_view reason : kMemoryQueueReasons) {
    std::optional<double> const f = fraction_of(reason);
    if (f && (!queue || *f > *queue)) queue = f;
  }
  int const atomics = facts.atomics.value_or(0);
  std::optional<double> const slice_max = lookup(m, metric::l2_atomic_active_max);
  std::optional<double> const slice_avg = lookup(m, metric::l2_atomic_active_avg);
  bool const hot_slice = slice_max && slice_avg && *slice_max >= kHotSliceMinPct &&
                         *slice_max >= kHotSliceRatio * std::max(*slice_avg, 1e-3);

  Finding finding;
  finding.tool = "sync_contention";
  std::vector<std::string> parts;
  auto stall_part = [&](std::optional<double> fraction, std::string_view what, std::string_view advice) {
    if (!fraction || *fraction <= kStallFraction) return;
    finding.severity =
        max_severity(finding.severity, *fraction >= kHighStallFraction ? Severity::high : Severity::medium);
    parts.push_back(fmt::format("{} stalls are {:.0f}% of the latency between issues ({})", what,
                                *fraction * 100.0, advice));
  };
  stall_part(barrier, "barrier (__syncthreads)", "warps wait for the slowest warp of the block");
  stall_part(membar, "memory-fence", "__threadfence or strong memory ordering waits for writes to complete");
  if (barrier && *barrier > kStallFraction) {
    add_strategy(finding, strategy::reduce_synchronization);
    add_strategy(finding, strategy::use_warp_shuffle);
  }
  if (membar && *membar > kStallFraction) add_strategy(finding, strategy::reduce_synchronization);
  if (hot_slice) {
    bool const stalled = queue && *queue > kHighStallFraction;
    finding.severity = max_severity(finding.severity, stalled ? Severity::high : Severity::medium);
    parts.push_back(fmt::format(
        "atomics pile onto few addresses: one L2 slice's atomic unit is busy {:.1f}% of the time against "
        "{:.2f}% on average{}",
        *slice_max, *slice_avg,
        queue ? fmt::format(", and memory-queue stalls are {:.0f}% of the latency between issues",
                            *queue * 100.0)
              : std::string()));
    add_strategy(finding, strategy::privatize_atomics);
    add_strategy(finding, strategy::use_warp_shuffle);
  } else if (atomics > 0) {
    bool const contended = queue && *queue > kStallFraction;
    finding.severity = max_severity(finding.severity, contended ? Severity::medium : Severity::info);
    parts.push_back(
        contended ? fmt::format("the SASS has {} atomic instructions and memory-queue stalls are {:.0f}% "
                                "of the latency between issues, a sign of contended atomics",
                                atomics, *queue * 100.0)
                  : fmt::format("the SASS has {} atomic instructions (contention not measured)", atomics));
    add_strategy(finding, strategy::privatize_atomics);
    add_strategy(finding, strategy::use_warp_shuffle);
  }
  if (parts.empty()) return std::nullopt;
  note(finding.evidence, stall_metric(kBarrier), lookup(m, stall_metric(kBarrier)));
  note(finding.evidence, stall_metric(kMembar), lookup(m, stall_metric(kMembar)));
  note(finding.evidence, metric::warp_latency_per_issue, latency);
  note(finding.evidence, "derived.memory_queue_stall_fraction", queue);
  note(finding.evidence, "static.atomics", known(facts.atomics));
  note(finding.evidence, metric::l2_atomic_active_max, slice_max);
  note(finding.evidence, metric::l2_atomic_active_avg, slice_avg);
  note(finding.evidence, "static.barriers", known(facts.barriers));
  std::string text;
  for (std::string const& part : parts) text += (text.empty() ? "" : "; ") + part;
  finding.explanation = "Synchronisation and atomics: " + text + ".";
  return finding;
}

}  // namespace sync_contention

AnalysisTool make_sync_contention_tool() {
  std::vector<std::string_view> metrics{metric::warp_latency_per_issue, metric::l2_atomic_active_max,
                                        metric::l2_atomic_active_avg};
  for (std::string const& name : sync_contention::metric_names()) metrics.emplace_back(name);
  return AnalysisTool{
      .name = "sync_contention",
      .description = "Barrier and memory-fence stalls, and atomics that may contend.",
      .always = true,
      .triggers = {},
      .metrics = std::move(metrics),
      .examine = &sync_contention::examine,
  };
}

}  // namespace kopt::analysis
