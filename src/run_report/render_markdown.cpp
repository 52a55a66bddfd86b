// render_run_markdown: a short summary (about 15 lines) for terminals and pull-request comments.
#include <fmt/format.h>

#include <algorithm>

#include "kopt/report.hpp"
#include "kopt/run_report.hpp"
#include "run_report/llm_text.hpp"
#include "run_report/report_text.hpp"

namespace kopt {

// Table cells may not hold '|' or line breaks.
std::string run_report_detail::markdown_cell(std::string const& text) {
  std::string out;
  for (char const c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string run_report_detail::best_sizes_markdown(RunReportBest const& best) {
  std::string md =
      "| size | reference | candidate | speedup | % SOL | max abs err |\n|---|---:|---:|---:|---:|---:|\n";
  for (RunReportSize const& size : best.sizes) {
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", markdown_cell(size.size),
                      size.verify_only ? "verify only" : duration_text(size.reference_us),
                      markdown_cell(time_with_iqr(size)), ratio_text(size.speedup), sol_text(size),
                      error_text(size.max_abs_err));
  }
  return md;
}

namespace {

using namespace run_report_detail;

// " · memory-bound (DRAM), 61 % SOL; register_spills: high" when the step's candidate has an insight.
std::string analysis_text(RunReport const& report, RunReportStep const& step) {
  CandidateInsight const* insight = candidate_insight(report, step.candidate);
  return insight != nullptr ? " · " + insight_headline(*insight) : std::string();
}

std::string step_line(RunReport const& report, RunReportStep const& step, std::size_t number) {
  if (!step.from) {
    return fmt::format("{}. start: candidate {}, {}{}\n", number, step.candidate.value(),
                       ratio_text(step.speedup_after), analysis_text(report, step));
  }
  std::string const effect = effect_text(step.speedup_before, step.speedup_after);
  return fmt::format("{}. `{}` {}: {} → {}{}{}{}\n", number, step_action_text(step),
                     knob_changes_text(step.changes), ratio_text(step.speedup_before),
                     ratio_text(step.speedup_after), effect.empty() ? "" : " (" + effect + ")",
                     step.status && *step.status != CandidateStatus::ok
                         ? std::string(", ") + std::string(to_string(*step.status))
                         : "",
                     analysis_text(report, step));
}

// Under a step that came from a model: "   - coder · purpose: rationale ($0.0042 · 1200 in / 800 out tokens
// · 3.2 s)", the rationale on one line and cut (the HTML and JSON reports hold it whole).
constexpr std::size_t kMarkdownRationale = 300;

std::string step_llm_lines(RunReport const& report, CandidateId candidate) {
  auto const found = std::find_if(report.candidates.begin(), report.candidates.end(),
                                  [&](RunReportCandidate const& c) { return c.id == candidate; });
  if (found == report.candidates.end()) return "";
  std::string md;
  for (RunReportLlmCall const& call : found->llm_calls) {
    std::string const text = call.status != "ok"      ? "failed: " + one_line(call.error, kMarkdownRationale)
                             : call.rationale.empty() ? std::string("(no prose in the reply)")
                                                      : one_line(call.rationale, kMarkdownRationale);
    md += fmt::format("   - {}: {} ({})\n", llm_call_title(call), text, llm_call_numbers(call));
  }
  return md;
}

std::string llm_text(RunReport const& report) {
  if (!report.llm) return "";
  std::string md = "\n" + llm_totals_text(*report.llm) + "\n";
  for (RunReportLlmCall const& call : report.llm->failed_without_candidate)
    md += fmt::format("- failed without a candidate: {}: {}\n", llm_call_title(call),
                      one_line(call.error, 200));
  return md;
}

// At most this many knobs get a line; the HTML and JSON reports hold them all.
constexpr std::size_t kMarkdownKnobs = 6;

// "- BLOCK: 128 → 1.25x · 256 → 2.00x (best) · 512 → failed (spread 1.60x)": the median per value.
std::string knob_line(KnobEffect const& effect) {
  std::string line = fmt::format("- {}:", effect.knob);
  char const* separator = " ";
  for (KnobValueEffect const& value : effect.values) {
    std::string const result = value.median       ? ratio_text(value.median)
                               : value.failed > 0 ? std::string("failed")
                                                  : std::string("-");
    bool const is_best = effect.best_value && *effect.best_value == value.value;
    line += fmt::format("{}{} → {}{}", separator, value.value, result, is_best ? " (best)" : "");
    separator = " · ";
  }
  if (effect.spread) line += fmt::format(" (spread {})", ratio_text(effect.spread));
  return line + "\n";
}

std::string knob_effects_text(std::vector<KnobEffect> const& effects) {
  if (effects.empty()) return "";
  std::string md = "\nKnob effects (median screen speedup per value, largest spread first):\n";
  std::size_t const shown = std::min(effects.size(), kMarkdownKnobs);
  for (std::size_t i = 0; i < shown; ++i) md += knob_line(effects[i]);
  if (effects.size() > shown)
    md += fmt::format("- … {} more knobs in the HTML and JSON reports\n", effects.size() - shown);
  return md;
}

}  // namespace

std::string render_run_markdown(RunReport const& report) {
  std::string md;
  std::string const title = fmt::format("kopt run {} · {}", report.run.value(), report.task_name);
  if (report.best) {
    md += fmt::format("### {}: **{}** geomean speedup ({} tier)\n\n", title,
                      format_ratio(report.best->geomean_speedup), report.best->tier);
    if (report.best->objective_score) {
      md += fmt::format("Objective {}: **{} {}** (the search maximised it; the speedup is runtime).\n\n",
                        report.objective, objective_text(report.objective),
                        format_ratio(*report.best->objective_score));
    }
    md += fmt::format("Best: `{}` (candidate {}). {} search, seed {}, {} candidates, {} evaluations, {}.\n\n",
                      knobs_text(report.best->knobs), report.best->candidate.value(), report.strategy,
                      report.seed, report.candidates.size(), report.evaluations.size(), report.status);
    md += best_sizes_markdown(*report.best);
  } else {
    md += fmt::format("### {}: no candidate passed verification\n\n", title);
    md += fmt::format("{} search, seed {}, {} candidates, {} evaluations, {}.\n", report.strategy,
                      report.seed, report.candidates.size(), report.evaluations.size(), report.status);
  }
  if (!report.steps.empty()) {
    md += "\nSteps (screen tier):\n";
    std::size_t number = 0;
    for (RunReportStep const& step : report.steps) {
      md += step_line(report, step, ++number);
      md += step_llm_lines(report, step.candidate);
    }
  }
  md += llm_text(report);
  md += knob_effects_text(report.knob_effects);
  if (!report.failures.empty()) {
    std::string counts;
    for (RunReportFailureGroup const& group : report.failures) {
      if (!counts.empty()) counts += ", ";
      counts += fmt::format("{} {}", to_string(group.status), group.candidates.size());
    }
    md += fmt::format("\nFailures: {}\n", counts);
  } else {
    md += "\nFailures: none\n";
  }
  return md;
}

}  // namespace kopt
