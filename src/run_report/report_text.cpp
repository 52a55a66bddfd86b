// Text pieces shared by the HTML and Markdown renderers of a run report.
#include "run_report/report_text.hpp"

#include <fmt/format.h>

#include <cmath>

#include "kopt/report.hpp"
#include "kopt/run_log.hpp"

namespace kopt::run_report_detail {

std::string ratio_text(std::optional<double> ratio) {
  return ratio ? format_ratio(*ratio) : std::string("-");
}

std::string sol_text(RunReportSize const& size) {
  if (!size.pct_of_sol) return "-";
  std::string text = fmt::format("{:.0f}%", *size.pct_of_sol);
  // Of the two rates, the one nearer its ceiling says what bounds the kernel; both are shown when known.
  if (size.achieved_gbps) text += fmt::format(" · {:.0f} GB/s", *size.achieved_gbps);
  if (size.achieved_gflops) text += fmt::format(" · {:.0f} GFLOP/s", *size.achieved_gflops);
  return text;
}

std::string duration_text(std::optional<double> microseconds) {
  return microseconds ? format_duration_us(*microseconds) : std::string("-");
}

std::string time_with_iqr(RunReportSize const& size) {
  if (!size.median_us) return "-";
  if (!size.iqr_us) return format_duration_us(*size.median_us);
  return format_duration_us(*size.median_us) + " ± " + format_duration_us(*size.iqr_us);
}

std::string error_text(std::optional<double> error) {
  if (!error) return "-";
  if (*error == 0.0) return "0";
  return fmt::format("{:.3g}", *error);
}

std::string status_text(std::optional<CandidateStatus> status) {
  return status ? std::string(to_string(*status)) : std::string("not evaluated");
}

std::string knob_change_text(KnobChange const& change) {
  return fmt::format("{} {} → {}", change.name, change.before.value_or("(unset)"),
                     change.after.value_or("(unset)"));
}

std::string knob_changes_text(std::vector<KnobChange> const& changes) {
  if (changes.empty()) return "-";
  std::string text;
  for (KnobChange const& change : changes) {
    if (!text.empty()) text += ", ";
    text += knob_change_text(change);
  }
  return text;
}

std::string step_action_text(RunReportStep const& step) {
  if (!step.from) return "start";
  if (!step.linked) return "jump";
  return step.action.empty() ? std::string("derived") : step.action;
}

std::string effect_text(std::optional<double> before, std::optional<double> after) {
  if (!before || !after || *before <= 0.0 || !std::isfinite(*before) || !std::isfinite(*after)) return "";
  return fmt::format("{:+.1f}%", (*after / *before - 1.0) * 100.0);
}

std::string budget_text(RunReport const& report) {
  std::string text =
      report.budget_evaluations ? fmt::format("{} evaluations", *report.budget_evaluations) : "-";
  if (report.budget_seconds) text += fmt::format(", {:g} s", *report.budget_seconds);
  return text;
}

std::string knobs_text(KnobValues const& knobs) {
  std::string text;
  for (auto const& [name, value] : knobs) {
    if (!text.empty()) text += ' ';
    text += name + '=' + value;
  }
  return text.empty() ? std::string("(no knobs)") : text;
}

CandidateInsight const* candidate_insight(RunReport const& report, CandidateId candidate) {
  for (RunReportCandidate const& c : report.candidates)
    if (c.id == candidate) return primary_insight(c.insights);
  return nullptr;
}

std::string objective_text(std::string_view objective) {
  return std::string(
      objective_label(optimize_objective_from_string(objective).value_or(OptimizeObjective::runtime)));
}

}  // namespace kopt::run_report_detail
