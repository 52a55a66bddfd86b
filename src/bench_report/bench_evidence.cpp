// The bench's "evidence for the gaps" section: for each row that misses a goal and was profiled
// (--profile-gaps), what Nsight Compute says about kopt's kernel and the vendor's, as text and Markdown.
#include <fmt/format.h>

#include "bench_report/bench_render.hpp"
#include "kopt/report.hpp"

namespace kopt::bench_detail {
namespace {

std::string pct(std::optional<double> v) {
  return v ? fmt::format("{:.0f}%", *v) : std::string("-");
}

// "memory-bound: 62% of speed of light (goal 85%); 0.81x the vendor (goal 0.9x)"
std::string missed(BenchRow const& r) {
  std::string out;
  if (misses_bandwidth_goal(r)) out += fmt::format("{} of DRAM speed of light (goal 85%)", pct(r.pct_of_sol));
  if (misses_vendor_goal(r)) {
    out += fmt::format("{}{} the vendor (goal {:.1f}x)", out.empty() ? "" : "; ",
                       r.vs_vendor ? format_ratio(*r.vs_vendor) : std::string("-"), vendor_goal(r.family));
  }
  return out;
}

std::string kernel_time(BenchEvidence const& e) {
  return e.headline.duration_us ? format_duration_us(*e.headline.duration_us) : std::string("-");
}

std::string main_kernel(BenchEvidence const& e) {
  std::string name = e.main_kernel.size() > 48 ? e.main_kernel.substr(0, 45) + "..." : e.main_kernel;
  return e.kernels > 1 ? fmt::format("{} (longest of {})", name, e.kernels) : name;
}

std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '|') c = ' ';
  }
  return text;
}

}  // namespace

std::string render_evidence(BenchSummary const& summary, bool markdown) {
  std::string out;
  for (auto const& r : summary.rows) {
    if (r.evidence.empty()) continue;
    if (out.empty()) {
      out = markdown ? "\n## Evidence for the gaps (Nsight Compute, largest size)\n\n"
                       "| task | size | missed | kernel of | main kernel | bottleneck | DRAM | L2 | SM | "
                       "occupancy | kernel time |\n|---|---|---|---|---|---|---:|---:|---:|---:|---:|\n"
                     : "\nEvidence for the gaps (Nsight Compute, largest size):\n";
    }
    if (!markdown) out += fmt::format("  {} {}: {}\n", r.task, r.size, missed(r));
    for (auto const& e : r.evidence) {
      if (e.status != "ok") {
        out += markdown
                   ? fmt::format("| {} | {} | {} | {} | not profiled: {} {} | - | - | - | - | - | - |\n",
                                 r.task, r.size, missed(r), e.subject, e.status, one_line(e.message))
                   : fmt::format("    {:<6} not profiled: {} {}\n", e.subject, e.status, one_line(e.message));
        continue;
      }
      MetricHeadline const& h = e.headline;
      out += markdown
                 ? fmt::format("| {} | {} | {} | {} | `{}` | {} | {} | {} | {} | {} | {} |\n", r.task, r.size,
                               missed(r), e.subject, main_kernel(e), e.bottleneck, pct(h.dram_pct),
                               pct(h.l2_pct), pct(h.sm_pct), pct(h.achieved_occupancy_pct), kernel_time(e))
                 : fmt::format("    {:<6} {}: DRAM {}, L2 {}, SM {}, occupancy {}, {} ({})\n", e.subject,
                               e.bottleneck, pct(h.dram_pct), pct(h.l2_pct), pct(h.sm_pct),
                               pct(h.achieved_occupancy_pct), kernel_time(e), main_kernel(e));
    }
  }
  if (out.empty()) return out;
  // The classifier's sentence and the findings of kopt's kernel, per task.
  out += markdown ? "\nWhat the profiler found in kopt's kernel:\n\n" : "";
  for (auto const& r : summary.rows) {
    for (auto const& e : r.evidence) {
      if (e.subject != "kopt" || e.status != "ok") continue;
      if (markdown) {
        out += fmt::format("- **{}** ({}): {}\n", r.task, r.size, one_line(e.summary));
        for (auto const& f : e.findings) out += fmt::format("  - {}\n", one_line(f));
      } else {
        out += fmt::format("  {}: {}\n", r.task, one_line(e.summary));
        for (auto const& f : e.findings) out += fmt::format("    - {}\n", one_line(f));
      }
    }
  }
  return out;
}

}  // namespace kopt::bench_detail
