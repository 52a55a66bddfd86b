// render_run_html: one self-contained page (inline CSS and SVG, no scripts, no external resources).
// Every text that comes from the store goes through markup_escape.
#include <fmt/format.h>

#include <algorithm>

#include "kopt/report.hpp"
#include "kopt/run_report.hpp"
#include "kopt/text.hpp"
#include "run_report/llm_text.hpp"
#include "run_report/report_text.hpp"

namespace kopt {
namespace {

using namespace run_report_detail;

constexpr char const* kStyle = R"css(
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --soft:#f6f8fa; --accent:#0969da;
  --ok:#1a7f37; --ok-bg:#dafbe1; --bad:#cf222e; --bad-bg:#ffebe9; --warn:#9a6700; --warn-bg:#fff8c5;
  --info:#0969da; --info-bg:#ddf4ff; }
* { box-sizing: border-box; }
body { margin:0; background:#eef1f4; color:var(--fg);
  font:15px/1.5 -apple-system, "Segoe UI", "Helvetica Neue", Arial, "Noto Sans", "DejaVu Sans", sans-serif; }
main { max-width:1120px; margin:0 auto; padding:28px 24px 48px; }
header.top { background:#fff; border:1px solid var(--line); border-radius:12px; padding:22px 26px; }
h1 { margin:0 0 4px; font-size:26px; font-weight:650; letter-spacing:-0.01em; }
h1 .sub { color:var(--muted); font-weight:400; }
h2 { margin:0 0 14px; font-size:19px; font-weight:650; }
section { background:#fff; border:1px solid var(--line); border-radius:12px; padding:20px 26px; margin-top:18px; }
dl.meta { display:grid; grid-template-columns:repeat(auto-fill, minmax(240px, 1fr)); gap:8px 24px; margin:16px 0 0; }
dl.meta div { min-width:0; }
dl.meta dt { color:var(--muted); font-size:12px; text-transform:uppercase; letter-spacing:0.04em; }
dl.meta dd { margin:0; overflow-wrap:anywhere; }
.badge { display:inline-block; padding:1px 10px; border-radius:999px; font-size:12.5px; font-weight:600;
  vertical-align:middle; border:1px solid transparent; white-space:nowrap; }
.badge.ok { color:var(--ok); background:var(--ok-bg); border-color:#aceebb; }
.badge.bad { color:var(--bad); background:var(--bad-bg); border-color:#ffcecb; }
.badge.warn { color:var(--warn); background:var(--warn-bg); border-color:#f5e0a0; }
.badge.info { color:var(--info); background:var(--info-bg); border-color:#b6e3ff; }
.badge.muted { color:var(--muted); background:var(--soft); border-color:var(--line); }
.headline { display:flex; align-items:baseline; gap:14px; flex-wrap:wrap; }
.big { font-size:44px; font-weight:700; color:var(--ok); letter-spacing:-0.02em; }
.chips { margin:10px 0 14px; }
.chip { display:inline-block; font:13px/1.6 ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, monospace;
  background:var(--soft); border:1px solid var(--line); border-radius:6px; padding:0 8px; margin:0 6px 6px 0; }
table { border-collapse:collapse; width:100%; font-size:14px; }
th, td { text-align:left; padding:6px 10px; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; font-size:12.5px; text-transform:uppercase; letter-spacing:0.03em;
  background:var(--soft); }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
code, pre, .mono { font-family:ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace; }
code { font-size:13px; background:var(--soft); padding:1px 5px; border-radius:4px; }
details { margin-top:10px; }
summary { cursor:pointer; color:var(--accent); font-weight:500; }
pre { margin:8px 0 0; padding:12px 14px; background:var(--soft); border:1px solid var(--line); border-radius:8px;
  overflow:auto; font-size:12.5px; line-height:1.45; max-height:560px; }
pre.diff { padding:6px 0; }
pre.diff span { display:block; padding:0 14px; white-space:pre; }
pre.diff .add { background:#dafbe1; color:#116329; }
pre.diff .del { background:#ffebe9; color:#82071e; }
pre.diff .hunk { background:#ddf4ff; color:#0550ae; }
ol.steps { list-style:none; margin:0; padding:0; counter-reset:step; }
ol.steps > li { border:1px solid var(--line); border-radius:10px; padding:12px 16px; margin-bottom:12px;
  border-left:4px solid var(--accent); }
ol.steps > li.worse { border-left-color:var(--bad); }
ol.steps > li.start { border-left-color:var(--muted); }
.step-head { display:flex; gap:12px; align-items:center; flex-wrap:wrap; }
.step-no { font-weight:700; color:var(--muted); min-width:1.6em; }
.effect { font-weight:600; font-variant-numeric:tabular-nums; }
.effect.up { color:var(--ok); }
.effect.down { color:var(--bad); }
.evidence { color:var(--muted); font-size:13px; margin-top:6px; }
.muted { color:var(--muted); }
svg.plot { width:100%; height:auto; display:block; }
svg.plot .plot-bg { fill:#fbfcfd; }
svg.plot .fail-band { fill:#fff5f5; }
svg.plot .grid { stroke:#e6e9ed; stroke-width:1; }
svg.plot .axis { stroke:#8c959f; stroke-width:1; }
svg.plot .reference { stroke:#8c959f; stroke-width:1; stroke-dasharray:4 4; }
svg.plot .tick { fill:var(--muted); font-size:11.5px; }
svg.plot .label { fill:var(--fg); font-size:12.5px; }
svg.plot .best { fill:none; stroke:var(--ok); stroke-width:2.2; }
svg.plot .pt.ok { fill:var(--accent); fill-opacity:0.55; }
svg.plot .pt.confirm { fill:#8250df; stroke:#fff; stroke-width:1; }
svg.plot .pt.untimed { fill:#8c959f; }
svg.plot .pt.fail { stroke:var(--bad); stroke-width:1.8; fill:none; }
.legend { display:flex; gap:18px; flex-wrap:wrap; color:var(--muted); font-size:13px; margin-top:6px; }
.legend i { display:inline-block; width:12px; height:12px; border-radius:50%; margin-right:6px; vertical-align:-1px; }
.knob-intro { color:var(--muted); font-size:13.5px; margin:0 0 12px; }
table.knobs td.knob { border-right:1px solid var(--line); background:#fff; }
table.knobs .spread { display:block; color:var(--muted); font-size:12.5px; font-weight:400; }
table.knobs tr.best-value td:not(.knob) { background:var(--ok-bg); font-weight:600; }
table.knobs .bar { display:inline-block; height:8px; border-radius:4px; background:var(--accent);
  opacity:0.45; margin-right:8px; vertical-align:0; }
table.knobs .fails { color:var(--bad); }
footer { color:var(--muted); font-size:12.5px; text-align:center; margin-top:22px; }
.insight { margin-top:8px; font-size:13.5px; }
.insight .class { font-weight:600; }
.insight ul.findings { margin:6px 0 0; padding-left:0; list-style:none; }
.insight ul.findings li { margin:4px 0; }
.insight .try { color:var(--muted); font-size:12.5px; }
.insight .numbers { color:var(--muted); font-size:12px; }
.insight-head { margin-top:14px; }
)css";

// Only in pages of runs that called a language model, so that other pages stay as they were.
constexpr char const* kLlmStyle = R"css(
.llm { margin-top:10px; border:1px solid #b6e3ff; background:#f5fbff; border-radius:8px; padding:8px 12px; }
.llm.failed { border-color:#ffcecb; background:#fff8f7; }
.llm-head { display:flex; gap:10px; align-items:center; flex-wrap:wrap; font-size:13.5px; }
.llm-head .purpose { font-weight:600; }
.llm .rationale { margin:6px 0 0; white-space:pre-wrap; overflow-wrap:anywhere; font-size:14px; }
.llm .numbers { color:var(--muted); font-size:12.5px; margin-top:4px; }
.llm-summary { margin:14px 0 0; font-weight:600; }
.llm-failed-list { margin:4px 0 0; padding-left:20px; font-size:13.5px; }
)css";

std::string badge(std::string const& text, char const* tone) {
  return fmt::format(R"(<span class="badge {}">{}</span>)", tone, markup_escape(text));
}

std::string status_badge(std::optional<CandidateStatus> status) {
  if (!status) return badge("not evaluated", "muted");
  return badge(std::string(to_string(*status)), *status == CandidateStatus::ok ? "ok" : "bad");
}

std::string run_status_badge(std::string const& status) {
  char const* tone = "warn";
  if (status == "finished") tone = "ok";
  if (status == "running") tone = "info";
  return badge(status, tone);
}

std::string meta_item(char const* label, std::string const& value) {
  return fmt::format("<div><dt>{}</dt><dd>{}</dd></div>", label, markup_escape(value.empty() ? "-" : value));
}

// The box of one LLM call next to the step its reply became: who was asked for what, the reply's prose,
// cost, tokens and latency (and the error of a failed call).
std::string llm_box(RunReportLlmCall const& call) {
  bool const failed = call.status != "ok";
  std::string html = fmt::format(R"(<div class="llm{}"><div class="llm-head">{})", failed ? " failed" : "",
                                 badge(call.role, failed ? "bad" : "info"));
  html += fmt::format(R"(<span class="purpose">{}</span>)", markup_escape(call.purpose));
  if (!call.model.empty()) {
    html += fmt::format(R"(<span class="muted">{}{}</span>)", markup_escape(call.model),
                        call.backend.empty() ? std::string() : markup_escape(" (" + call.backend + ")"));
  }
  html += "</div>";
  if (!call.rationale.empty())
    html += fmt::format(R"(<p class="rationale">{}</p>)", markup_escape(call.rationale));
  if (failed) html += fmt::format(R"(<p class="rationale">Failed: {}</p>)", markup_escape(call.error));
  html += fmt::format(R"(<div class="numbers">{}</div></div>)", markup_escape(llm_call_numbers(call)));
  return html;
}

std::string step_llm_calls(RunReport const& report, CandidateId candidate) {
  auto const found = std::find_if(report.candidates.begin(), report.candidates.end(),
                                  [&](RunReportCandidate const& c) { return c.id == candidate; });
  if (found == report.candidates.end()) return "";
  std::string html;
  for (RunReportLlmCall const& call : found->llm_calls) html += llm_box(call);
  return html;
}

// Under the header of a run that called a model: "LLM: N calls (M failed), $X, T tokens" and the failed
// calls that made no candidate.
std::string llm_summary(RunReport const& report) {
  if (!report.llm) return "";
  RunReportLlmTotals const& totals = *report.llm;
  std::string html =
      fmt::format(R"(<p class="llm-summary" id="llm">{}</p>)", markup_escape(llm_totals_text(totals)));
  if (totals.failed_without_candidate.empty()) return html;
  html += "<div class=\"muted\">Failed LLM calls that made no candidate:</div><ul class=\"llm-failed-list\">";
  for (RunReportLlmCall const& call : totals.failed_without_candidate) {
    html += fmt::format(R"(<li>{}: <span class="mono">{}</span></li>)", markup_escape(llm_call_title(call)),
                        markup_escape(one_line(call.error, 300)));
  }
  html += "</ul>";
  return html;
}

std::string header(RunReport const& report) {
  std::string html = "<header class=\"top\">";
  html += fmt::format(R"(<h1>{} <span class="sub">· run {}</span> {}</h1>)", markup_escape(report.task_name),
                      report.run.value(), run_status_badge(report.status));
  html += "<dl class=\"meta\">";
  html += meta_item("task folder", report.task_dir);
  html += meta_item("strategy", report.strategy);
  html += meta_item("objective", report.objective);
  html += meta_item("seed", std::to_string(report.seed));
  html += meta_item("budget", budget_text(report));
  html += meta_item("device", report.device);
  html += meta_item("driver", report.driver);
  html += meta_item("toolkit", report.toolkit);
  html += meta_item("started", report.started_at);
  html += meta_item("finished", report.finished_at.value_or("-"));
  html += meta_item("candidates / evaluations",
                    fmt::format("{} / {}", report.candidates.size(), report.evaluations.size()));
  html += meta_item("tunable source", report.source_path);
  if (!report.flags.empty())
    html += meta_item("extra flags", fmt::format("{}", fmt::join(report.flags, " ")));
  html += "</dl>";
  html += llm_summary(report);
  html += "</header>";
  return html;
}

std::string size_table(std::vector<RunReportSize> const& sizes) {
  std::string html =
      "<table><thead><tr><th>size</th><th>status</th><th class=\"num\">reference</th>"
      "<th class=\"num\">candidate (median ± IQR)</th><th class=\"num\">speedup</th>"
      "<th class=\"num\">% of speed of light</th>"
      "<th class=\"num\">max abs err</th><th class=\"num\">max rel err</th></tr></thead><tbody>";
  for (RunReportSize const& size : sizes) {
    std::string const status = size.status == "ok" ? badge(size.verify_only ? "ok · verify only" : "ok", "ok")
                                                   : badge(size.status, "bad");
    html += fmt::format(
        "<tr><td class=\"mono\">{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\"><strong>{}</strong></td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td></tr>",
        markup_escape(size.size), status, markup_escape(duration_text(size.reference_us)),
        markup_escape(time_with_iqr(size)), markup_escape(ratio_text(size.speedup)),
        markup_escape(sol_text(size)), error_text(size.max_abs_err), error_text(size.max_rel_err));
  }
  html += "</tbody></table>";
  return html;
}

std::string chips(KnobValues const& knobs) {
  std::string html = "<div class=\"chips\">";
  for (auto const& [name, value] : knobs)
    html += fmt::format(R"(<span class="chip">{}={}</span>)", markup_escape(name), markup_escape(value));
  if (knobs.empty()) html += "<span class=\"muted\">no knobs</span>";
  return html + "</div>";
}

char const* severity_tone(Severity severity) {
  switch (severity) {
    case Severity::high: return "bad";
    case Severity::medium: return "warn";
    case Severity::low: return "info";
    case Severity::info: return "muted";
  }
  return "muted";
}

std::string evidence_numbers(Evidence const& evidence) {
  std::string text;
  for (auto const& [name, value] : evidence) {
    if (!text.empty()) text += ", ";
    text += fmt::format("{} = {:.4g}", name, value);
  }
  return text;
}

// "memory-bound (DRAM) · 61% of speed of light · roofline, size large".
std::string insight_heading(CandidateInsight const& insight) {
  std::string html =
      fmt::format(R"(<span class="class">{}</span>)", markup_escape(bottleneck_text(insight.classification)));
  if (insight.pct_of_sol) html += fmt::format(" · {:.0f}% of speed of light", *insight.pct_of_sol);
  html += fmt::format(R"( <span class="muted">({}, size {})</span>)",
                      insight.source == insight_source::ncu ? "Nsight Compute" : "roofline",
                      markup_escape(insight.size));
  return html;
}

// A severity badge, the tool, the explanation, the strategies (and the evidence numbers when `numbers`).
std::string finding_items(std::vector<Finding> const& findings, std::size_t limit, bool numbers) {
  std::string html = "<ul class=\"findings\">";
  std::size_t shown = 0;
  for (Finding const& finding : findings) {
    if (shown++ >= limit) break;
    html += fmt::format("<li>{} <code>{}</code> {}",
                        badge(std::string(to_string(finding.severity)), severity_tone(finding.severity)),
                        markup_escape(finding.tool), markup_escape(finding.explanation));
    if (!finding.strategies.empty())
      html += fmt::format(R"( <span class="try">try: {}</span>)",
                          markup_escape(fmt::format("{}", fmt::join(finding.strategies, ", "))));
    if (numbers && !finding.evidence.empty())
      html +=
          fmt::format(R"(<div class="numbers">{}</div>)", markup_escape(evidence_numbers(finding.evidence)));
    html += "</li>";
  }
  if (findings.size() > limit)
    html += fmt::format(R"(<li class="muted">… {} more in the best candidate's analysis</li>)",
                        findings.size() - limit);
  return html + "</ul>";
}

// Next to a step: the candidate's primary insight and its top findings.
std::string step_insight(RunReport const& report, CandidateId candidate) {
  CandidateInsight const* insight = candidate_insight(report, candidate);
  if (insight == nullptr) return "";
  std::string html = "<div class=\"insight\">Analysis: " + insight_heading(*insight);
  constexpr std::size_t kTopFindings = 3;
  if (!insight->findings.empty()) html += finding_items(insight->findings, kTopFindings, false);
  return html + "</div>";
}

// The best candidate's full analysis: every current insight (Nsight Compute ones first), every finding.
std::string best_insights(RunReport const& report, CandidateId candidate) {
  auto const found = std::find_if(report.candidates.begin(), report.candidates.end(),
                                  [&](RunReportCandidate const& c) { return c.id == candidate; });
  if (found == report.candidates.end() || found->insights.empty()) return "";
  std::string html = "<div id=\"best-analysis\" class=\"insight\"><h3 class=\"insight-head\">Analysis</h3>";
  for (CandidateInsight const& insight : found->insights) {
    html += "<div class=\"insight\">" + insight_heading(insight);
    html += fmt::format(R"(<div class="muted">{}</div>)", markup_escape(insight.classification.summary));
    if (insight.findings.empty()) {
      html += "<div class=\"muted\">No findings: nothing the analysis tools look for stands out.</div>";
    } else {
      html += finding_items(insight.findings, insight.findings.size(), true);
    }
    html += "</div>";
  }
  return html + "</div>";
}

std::string best_section(RunReport const& report) {
  std::string html = "<section id=\"best\"><h2>Best candidate</h2>";
  if (!report.best) {
    html +=
        "<p class=\"muted\">No candidate of this run passed verification, so there is nothing to show "
        "here; the failures below say why.</p></section>";
    return html;
  }
  RunReportBest const& best = *report.best;
  html += fmt::format(
      R"(<div class="headline"><span class="big">{}</span><span>geomean speedup over the reference, )"
      R"(candidate <a href="#cand-{}">{}</a></span>{}</div>)",
      markup_escape(format_ratio(best.geomean_speedup)), best.candidate.value(), best.candidate.value(),
      best.tier == "confirm" ? badge("confirm tier", "ok") : badge("screen tier only", "warn"));
  if (best.objective_score) {
    html += fmt::format("<p>Objective {}: <strong>{} {}</strong> (what the search maximised)</p>",
                        markup_escape(report.objective), markup_escape(objective_text(report.objective)),
                        markup_escape(format_ratio(*best.objective_score)));
  }
  html += chips(best.knobs);
  html += size_table(best.sizes);
  html += best_insights(report, best.candidate);
  html += fmt::format(
      R"(<details id="best-source"><summary>Full source of candidate {} ({} lines)</summary><pre>{}</pre></details>)",
      best.candidate.value(), std::count(best.source.begin(), best.source.end(), '\n'),
      markup_escape(best.source));
  html += "</section>";
  return html;
}

std::string progress_section(RunReport const& report) {
  std::string html = "<section id=\"progress\"><h2>Best so far against evaluations</h2>";
  html += render_progress_svg(report);
  html +=
      "<div class=\"legend\"><span><i style=\"background:#1a7f37;border-radius:0;height:3px\"></i>best so "
      "far (screen)</span><span><i style=\"background:#0969da;opacity:.55\"></i>ok evaluation</span>"
      "<span><i style=\"background:#8250df;border-radius:0;transform:rotate(45deg) scale(.8)\"></i>confirm "
      "tier</span><span style=\"color:#cf222e\">✕ failed (bottom band)</span><span>- - - reference "
      "(1x)</span></div></section>";
  return html;
}

std::string diff_block(SourceDiff const& diff) {
  if (diff.hunks.empty()) return "<p class=\"muted\">The source is the same as the previous step's.</p>";
  std::size_t added = 0;
  std::size_t removed = 0;
  std::string body;
  for (DiffHunk const& hunk : diff.hunks) {
    body += fmt::format(R"(<span class="hunk">{}</span>)", markup_escape(hunk.header));
    for (DiffLine const& line : hunk.lines) {
      char const* css = line.kind == '+' ? "add" : line.kind == '-' ? "del" : "ctx";
      added += line.kind == '+';
      removed += line.kind == '-';
      body += fmt::format(R"(<span class="{}">{}{}</span>)", css, line.kind, markup_escape(line.text));
    }
  }
  return fmt::format(R"(<details open><summary>Diff against the previous step (+{} −{} lines)</summary>)"
                     R"(<pre class="diff">{}</pre></details>)",
                     added, removed, body);
}

std::string evidence_text(RunReportStep const& step) {
  std::string text;
  for (RunReportSize const& size : step.evidence) {
    if (size.verify_only) continue;
    if (!text.empty()) text += " · ";
    text += fmt::format("{}: {} vs reference {} → {}", size.size, time_with_iqr(size),
                        duration_text(size.reference_us), ratio_text(size.speedup));
  }
  return text;
}

std::string steps_section(RunReport const& report) {
  std::string html = "<section id=\"steps\"><h2>From the starting kernel to the best</h2>";
  if (report.steps.empty()) {
    html += "<p class=\"muted\">No best candidate, so no chain of steps.</p></section>";
    return html;
  }
  html += "<ol class=\"steps\">";
  std::size_t number = 0;
  for (RunReportStep const& step : report.steps) {
    ++number;
    bool const worse =
        step.speedup_before && step.speedup_after && *step.speedup_after < *step.speedup_before;
    html += fmt::format(R"(<li class="{}"><div class="step-head"><span class="step-no">{}</span>)",
                        !step.from ? "start"
                        : worse    ? "worse"
                                   : "better",
                        number);
    html += fmt::format("<code>{}</code>", markup_escape(step_action_text(step)));
    html += fmt::format(R"(<a href="#cand-{0}">candidate {0}</a>)", step.candidate.value());
    if (step.from) html += fmt::format("<span>{}</span>", markup_escape(knob_changes_text(step.changes)));
    std::string const effect = effect_text(step.speedup_before, step.speedup_after);
    if (step.from) {
      html += fmt::format(R"(<span class="effect {}">{} → {}{}</span>)", worse ? "down" : "up",
                          ratio_text(step.speedup_before), ratio_text(step.speedup_after),
                          effect.empty() ? "" : " (" + effect + ")");
    } else {
      html += fmt::format(R"(<span class="effect">{}</span>)", ratio_text(step.speedup_after));
    }
    html += status_badge(step.status);
    html += "</div>";
    if (!step.linked)
      html +=
          "<div class=\"evidence\">No parent was recorded for this candidate (a fresh proposal of the "
          "search); it is compared with the starting kernel.</div>";
    html += step_llm_calls(report, step.candidate);
    std::string const evidence = evidence_text(step);
    html += fmt::format(R"(<div class="evidence">Evidence (screen tier): {}</div>)",
                        evidence.empty() ? "no timed sizes" : markup_escape(evidence));
    html += step_insight(report, step.candidate);
    if (step.from) html += diff_block(step.diff);
    html += "</li>";
  }
  html += "</ol></section>";
  return html;
}

std::string knob_value_row(KnobEffect const& effect, KnobValueEffect const& value, double widest) {
  bool const is_best = effect.best_value && *effect.best_value == value.value;
  std::string bar;
  if (value.median && widest > 0.0) {
    bar = fmt::format(R"(<span class="bar" style="width:{:.0f}px"></span>)",
                      std::max(2.0, 80.0 * *value.median / widest));
  }
  return fmt::format(
      R"(<td class="mono">{}{}</td><td class="num">{}</td><td class="num{}">{}</td><td class="num">{}</td>)"
      R"(<td class="num">{}{}</td><td class="num">{}</td></tr>)",
      markup_escape(value.value), is_best ? " ★" : "", value.ok, value.failed > 0 ? " fails" : "",
      value.failed, ratio_text(value.best), bar, ratio_text(value.median), ratio_text(value.around_best));
}

std::string knob_effects_section(RunReport const& report) {
  std::string html = "<section id=\"knobs\"><h2>Knob effects</h2>";
  if (report.knob_effects.empty()) {
    html += "<p class=\"muted\">Nothing to compare: the run has fewer than two candidates or no knobs.</p>";
    return html + "</section>";
  }
  html +=
      "<p class=\"knob-intro\">Per knob and value: the candidates with that value that passed verification "
      "or failed, the best and the median screen-tier geomean speedup of the ok ones, and <em>around "
      "best</em>, the best candidate with only this knob changed (how sensitive the optimum is to it). The "
      "knob whose medians spread the most comes first; ★ marks the best candidate's value.</p>";
  double widest = 0.0;
  for (KnobEffect const& effect : report.knob_effects)
    for (KnobValueEffect const& value : effect.values)
      if (value.median) widest = std::max(widest, *value.median);
  html +=
      "<table class=\"knobs\"><thead><tr><th>knob</th><th>value</th><th class=\"num\">ok</th>"
      "<th class=\"num\">failed</th><th class=\"num\">best</th><th class=\"num\">median</th>"
      "<th class=\"num\">around best</th></tr></thead><tbody>";
  for (KnobEffect const& effect : report.knob_effects) {
    bool first = true;
    for (KnobValueEffect const& value : effect.values) {
      bool const is_best = effect.best_value && *effect.best_value == value.value;
      html += is_best ? "<tr class=\"best-value\">" : "<tr>";
      if (first) {
        html += fmt::format(R"(<td class="knob mono" rowspan="{}"><strong>{}</strong>)"
                            R"(<span class="spread">spread {}</span></td>)",
                            effect.values.size(), markup_escape(effect.knob), ratio_text(effect.spread));
        first = false;
      }
      html += knob_value_row(effect, value, widest);
    }
  }
  html += "</tbody></table></section>";
  return html;
}

std::string failures_section(RunReport const& report) {
  std::string html = "<section id=\"failures\"><h2>Failed candidates</h2>";
  if (report.failures.empty()) {
    html += "<p class=\"muted\">Every evaluated candidate passed verification.</p></section>";
    return html;
  }
  for (RunReportFailureGroup const& group : report.failures) {
    html += fmt::format(R"(<details><summary>{} × {}</summary><table><thead><tr><th>candidate</th>)"
                        R"(<th>knobs</th><th>first line of the message</th></tr></thead><tbody>)",
                        status_badge(group.status), group.candidates.size());
    for (RunReportFailure const& failure : group.candidates) {
      html += fmt::format(
          R"(<tr><td><a href="#cand-{0}">{0}</a></td><td class="mono">{1}</td><td class="mono">{2}</td></tr>)",
          failure.candidate.value(), markup_escape(failure.config), markup_escape(failure.message));
    }
    html += "</tbody></table></details>";
  }
  html += "</section>";
  return html;
}

std::string candidates_section(RunReport const& report) {
  std::string html =
      "<section id=\"candidates\"><h2>All candidates</h2><table><thead><tr><th class=\"num\">id</th>"
      "<th class=\"num\">parent</th><th>action</th><th>knobs</th><th>status</th><th class=\"num\">screen</th>"
      "<th class=\"num\">confirm</th><th>tier</th></tr></thead><tbody>";
  for (RunReportCandidate const& candidate : report.candidates) {
    bool const is_best = report.best && report.best->candidate == candidate.id;
    std::string const tier = candidate.confirm_speedup  ? "confirm"
                             : candidate.screen_speedup ? "screen"
                                                        : "-";
    html += fmt::format(
        R"(<tr id="cand-{0}"><td class="num">{0}{1}</td><td class="num">{2}</td><td class="mono">{3}</td>)"
        R"(<td class="mono">{4}</td><td>{5}</td><td class="num">{6}</td><td class="num">{7}</td><td>{8}</td></tr>)",
        candidate.id.value(), is_best ? " ★" : "",
        candidate.parent ? std::to_string(candidate.parent->value()) : "-",
        markup_escape(candidate.action.empty() ? "-" : candidate.action), markup_escape(candidate.config),
        status_badge(candidate.status), ratio_text(candidate.screen_speedup),
        ratio_text(candidate.confirm_speedup), tier);
  }
  html += "</tbody></table></section>";
  return html;
}

}  // namespace

namespace run_report_detail {

std::string_view report_style() {
  return kStyle;
}
std::string best_section_html(RunReport const& report) {
  return best_section(report);
}
std::string progress_section_html(RunReport const& report) {
  return progress_section(report);
}

}  // namespace run_report_detail

std::string render_run_html(RunReport const& report) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  html += fmt::format("<title>kopt run {} · {}</title>", report.run.value(), markup_escape(report.task_name));
  html += "<style>";
  html += kStyle;
  if (report.llm) html += kLlmStyle;
  html += "</style></head><body><main>";
  html += header(report);
  html += best_section(report);
  html += progress_section(report);
  html += steps_section(report);
  html += knob_effects_section(report);
  html += failures_section(report);
  html += candidates_section(report);
  html += fmt::format("<footer>kopt report · run {} · {}</footer>", report.run.value(),
                      markup_escape(std::string(kRunReportSchema)));
  html += "</main></body></html>\n";
  return html;
}

}  // namespace kopt
