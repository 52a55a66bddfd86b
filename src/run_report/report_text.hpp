// Text pieces shared by the HTML and Markdown renderers of a run report (private to run_report).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kopt/run_report.hpp"

namespace kopt::run_report_detail {

std::string ratio_text(std::optional<double> ratio);            // "3.41x" or "-"
std::string duration_text(std::optional<double> microseconds);  // "12.3 µs" or "-"
std::string time_with_iqr(RunReportSize const& size);           // "12.3 µs ± 0.12 µs" or "-"
std::string error_text(std::optional<double> error);            // "1.19e-07", "0" or "-"
// "44%" of speed of light, with the achieved rate when known ("44% · 2.1 TB/s"), or "-".
std::string sol_text(RunReportSize const& size);
std::string status_text(std::optional<CandidateStatus> status);         // "not evaluated" when unset
std::string knob_change_text(KnobChange const& change);                 // "BLOCK 128 → 256"
std::string knob_changes_text(std::vector<KnobChange> const& changes);  // ", "-joined; "-" when none
std::string step_action_text(RunReportStep const& step);                // the action, "start" or "jump"
// "+40.0%" for the relative change from before to after; "" when either is missing.
std::string effect_text(std::optional<double> before, std::optional<double> after);
std::string budget_text(RunReport const& report);  // "100 evaluations, 600 s"
std::string knobs_text(KnobValues const& knobs);   // "BLOCK=256 ITEMS=2 VEC=4"
// How a score of the run's objective reads: "energy gain", "composite", "speedup" (runtime or unknown).
std::string objective_text(std::string_view objective);

// Pieces of the run's page that the session page reuses (render_html.cpp): the stylesheet, the best
// candidate's section (headline, knobs, per-size table, insights, source) and the progress plot's section.
std::string_view report_style();
std::string best_section_html(RunReport const& report);
std::string progress_section_html(RunReport const& report);
// The best candidate as the run report's JSON holds it (run_report_json.cpp); null when unset.
nlohmann::json best_json(std::optional<RunReportBest> const& best);
// "| size | reference | candidate | speedup | % SOL | max abs err |" rows of the best (render_markdown.cpp).
std::string best_sizes_markdown(RunReportBest const& best);
// A Markdown table cell: '|' escaped, line breaks as spaces.
std::string markdown_cell(std::string const& text);

// The candidate's primary insight (primary_insight of its current ones); nullptr when it has none.
CandidateInsight const* candidate_insight(RunReport const& report, CandidateId candidate);

}  // namespace kopt::run_report_detail
