// Choosing a candidate's current insights and describing them: one line for reports, plain text for
// proposers (bounded by a character budget), and the strategies they suggest.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "kopt/insight.hpp"

namespace kopt {
namespace {

// A finding with where it came from, for ordering across insights.
struct Placed {
  Finding const* finding = nullptr;
  bool ncu = false;
  std::vector<std::string> sizes;  // every size whose insight reported the same finding
};

// Findings of all insights, most severe first, Nsight Compute ones before roofline ones at equal severity
// (stable otherwise: the insights' order, then each one's order); the same
// tool with the same explanation from the same source on several sizes is listed once, with its sizes.
std::vector<Placed> ordered_findings(std::span<CandidateInsight const> insights) {
  std::vector<Placed> placed;
  for (CandidateInsight const& insight : insights) {
    for (Finding const& finding : insight.findings) {
      auto const same = std::find_if(placed.begin(), placed.end(), [&](Placed const& p) {
        return p.ncu == (insight.source == insight_source::ncu) && p.finding->tool == finding.tool &&
               p.finding->explanation == finding.explanation;
      });
      if (same != placed.end()) {
        if (std::find(same->sizes.begin(), same->sizes.end(), insight.size) == same->sizes.end())
          same->sizes.push_back(insight.size);
        continue;
      }
      placed.push_back(Placed{&finding, insight.source == insight_source::ncu, {insight.size}});
    }
  }
  std::stable_sort(placed.begin(), placed.end(), [](Placed const& a, Placed const& b) {
    if (a.finding->severity != b.finding->severity)
      return static_cast<int>(a.finding->severity) > static_cast<int>(b.finding->severity);
    return a.ncu && !b.ncu;
  });
  return placed;
}

std::string evidence_text(Evidence const& evidence) {
  std::string text;
  for (auto const& [name, value] : evidence) {
    if (!std::isfinite(value)) continue;
    if (!text.empty()) text += ", ";
    text += fmt::format("{}={:.4g}", name, value);
  }
  return text;
}

std::string bottleneck_line(CandidateInsight const& insight) {
  std::string line = fmt::format("Bottleneck (size {}, {}): {}", insight.size,
                                 insight.source == insight_source::ncu ? "Nsight Compute" : "roofline",
                                 bottleneck_text(insight.classification));
  if (insight.pct_of_sol) line += fmt::format(", {:.0f} % of speed of light", *insight.pct_of_sol);
  line += ".";
  if (!insight.classification.summary.empty()) line += " " + insight.classification.summary;
  return line;
}

std::string finding_line(Placed const& placed) {
  Finding const& f = *placed.finding;
  std::string line = fmt::format("- [{}] {} (size {}): {}", to_string(f.severity), f.tool,
                                 fmt::join(placed.sizes, ", "), f.explanation);
  std::string const evidence = evidence_text(f.evidence);
  if (!evidence.empty()) line += " Evidence: " + evidence + ".";
  if (!f.strategies.empty()) line += fmt::format(" Strategies: {}.", fmt::join(f.strategies, ", "));
  return line;
}

// Whole lines under `max_chars` (each followed by '\n'); a last line says what was left out.
std::string fit_lines(std::vector<std::string> const& lines, std::size_t max_chars) {
  std::size_t total = 0;
  for (std::string const& line : lines) total += line.size() + 1;
  std::string out;
  if (total <= max_chars) {
    for (std::string const& line : lines) out += line + '\n';
    return out;
  }
  std::size_t kept = 0;
  auto marker = [&](std::size_t left) {
    return fmt::format("[{} more line{} left out]\n", left, left == 1 ? "" : "s");
  };
  for (std::string const& line : lines) {
    std::size_t const after = out.size() + line.size() + 1;
    if (after + marker(lines.size() - kept - 1).size() > max_chars) break;
    out += line + '\n';
    ++kept;
  }
  std::string const last = marker(lines.size() - kept);
  if (out.size() + last.size() <= max_chars) out += last;
  return out;
}

}  // namespace

std::vector<CandidateInsight> current_insights(std::span<CandidateInsight const> oldest_first) {
  std::vector<CandidateInsight> ncu;
  std::vector<CandidateInsight> roofline;
  for (CandidateInsight const& insight : oldest_first) {
    auto& group = insight.source == insight_source::ncu ? ncu : roofline;
    auto const same = std::find_if(group.begin(), group.end(),
                                   [&](CandidateInsight const& kept) { return kept.size == insight.size; });
    if (same != group.end()) {
      *same = insight;  // newer replaces older, keeping the size's first position
    } else {
      group.push_back(insight);
    }
  }
  ncu.insert(ncu.end(), std::make_move_iterator(roofline.begin()), std::make_move_iterator(roofline.end()));
  return ncu;
}

CandidateInsight const* primary_insight(std::span<CandidateInsight const> insights) noexcept {
  for (CandidateInsight const& insight : insights)
    if (insight.source == insight_source::ncu) return &insight;
  return insights.empty() ? nullptr : &insights.back();
}

std::string bottleneck_text(Classification const& classification) {
  if (classification.basis == ClassificationBasis::none) return "not classified";
  switch (classification.bottleneck) {
    case BottleneckClass::memory_bound:
      if (!classification.memory_level) return "memory-bound";
      switch (*classification.memory_level) {
        case MemoryLevel::dram: return "memory-bound (DRAM)";
        case MemoryLevel::l2: return "memory-bound (L2)";
        case MemoryLevel::l1: return "memory-bound (L1/shared)";
      }
      return "memory-bound";
    case BottleneckClass::compute_bound: return "compute-bound";
    case BottleneckClass::latency_bound: return "latency-bound";
    case BottleneckClass::small_grid: return "small grid";
    case BottleneckClass::launch_overhead_bound: return "launch-overhead-bound";
    case BottleneckClass::balanced: return "balanced";
  }
  return "unknown";
}

std::string insight_headline(CandidateInsight const& insight, std::size_t max_findings) {
  std::string line = bottleneck_text(insight.classification);
  if (insight.pct_of_sol) line += fmt::format(", {:.0f} % SOL", *insight.pct_of_sol);
  std::vector<std::string> shown;
  for (Finding const& finding : insight.findings) {
    if (shown.size() >= max_findings) break;
    shown.push_back(fmt::format("{}: {}", finding.tool, to_string(finding.severity)));
  }
  if (!shown.empty()) line += fmt::format("; {}", fmt::join(shown, ", "));
  if (insight.findings.size() > shown.size())
    line += fmt::format(" (+{} more)", insight.findings.size() - shown.size());
  return line;
}

std::string describe_for_prompt(std::span<CandidateInsight const> insights, std::size_t max_chars) {
  std::vector<std::string> lines;
  if (insights.empty()) {
    lines.emplace_back("No analysis recorded for this candidate.");
    return fit_lines(lines, max_chars);
  }
  CandidateInsight const* primary = primary_insight(insights);
  lines.push_back(bottleneck_line(*primary));
  for (CandidateInsight const& insight : insights)
    if (&insight != primary) lines.push_back(bottleneck_line(insight));
  std::vector<Placed> const findings = ordered_findings(insights);
  if (findings.empty()) {
    lines.emplace_back("Findings: none (nothing the analysis tools look for stands out).");
  } else {
    lines.emplace_back("Findings, most severe first:");
    for (Placed const& placed : findings) lines.push_back(finding_line(placed));
  }
  std::vector<std::string> const strategies = suggested_strategies(insights);
  if (!strategies.empty()) {
    lines.emplace_back("Suggested strategies, most promising first:");
    for (std::string const& name : strategies) {
      StrategyInfo const* info = find_strategy(name);
      lines.push_back(info != nullptr ? fmt::format("- {}: {}", name, info->description)
                                      : fmt::format("- {}", name));
    }
  }
  return fit_lines(lines, max_chars);
}

std::vector<std::string> suggested_strategies(std::span<CandidateInsight const> insights) {
  std::vector<std::string> names;
  for (Placed const& placed : ordered_findings(insights)) {
    for (std::string const& name : placed.finding->strategies)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

}  // namespace kopt
