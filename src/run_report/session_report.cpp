// The report of a library session (`kopt report --session ID`): every strategy run with its best, and the
// overall best as `kopt export --session` chooses it. Built from the runs' own reports, and rendered with the
// run page's stylesheet and sections (report_text.hpp), so a session reads like the runs it groups.
#include <fmt/format.h>

#include <algorithm>

#include "kopt/report.hpp"
#include "kopt/run_report.hpp"
#include "kopt/text.hpp"
#include "run_report/report_text.hpp"

namespace kopt {
namespace {

using namespace run_report_detail;

std::string best_text(RunReport const& run) {
  return run.best ? fmt::format("{} ({})", format_ratio(run.best->geomean_speedup), run.best->tier) : "-";
}

// A run's best configuration; a dispatch by size (docs/strategies.md) has none of its own: it runs the
// configurations of the session's other runs, one per size case.
std::string config_text(SessionReportRun const& run) {
  if (!run.report.best) return "none verified";
  if (run.phase == "dispatch")
    return "one per size case: kopt report " + std::to_string(run.report.run.value());
  return knobs_text(run.report.best->knobs);
}

std::string status_tone(std::string const& status) {
  if (status == "finished") return "ok";
  if (status == "running") return "info";
  return "warn";
}

std::string evaluations_text(RunReport const& run) {
  return fmt::format("{} / {}", run.candidates.size(), run.evaluations.size());
}

}  // namespace

Result<SessionReport> build_session_report(Store& store, SessionId session) {
  auto stored = store.load_session(session);
  if (!stored) return stored.error();
  SessionReport report;
  report.session = stored->id;
  report.kind = stored->session.kind;
  report.task_name = stored->session.task_name;
  report.task_dir = stored->session.task_dir;
  report.status = std::string(to_string(stored->status));
  report.started_at = stored->started_at;
  report.finished_at = stored->finished_at;
  report.options = stored->session.options;
  auto runs = store.list_runs();
  if (!runs) return runs.error();
  for (RunId const run : stored->runs) {
    auto built = build_run_report(store, run);
    if (!built) return built.error();
    SessionReportRun part;
    auto const found =
        std::find_if(runs->begin(), runs->end(), [&](StoredRun const& r) { return r.id == run; });
    if (found != runs->end() && found->run.session) {
      part.strategy = found->run.session->strategy;
      part.phase = found->run.session->phase;
    }
    part.report = std::move(*built);
    report.runs.push_back(std::move(part));
  }
  auto best = store.best_verified_candidate(session);
  if (!best) return best.error();
  if (*best) {
    for (std::size_t i = 0; i < report.runs.size(); ++i) {
      if (report.runs[i].report.run == (*best)->candidate.run && report.runs[i].report.best)
        report.best_run = i;
    }
  }
  return report;
}

std::string render_session_markdown(SessionReport const& report) {
  std::string md;
  std::string const title = fmt::format("kopt session {} · {}", report.session.value(), report.task_name);
  if (report.best_run) {
    SessionReportRun const& best = report.runs[*report.best_run];
    md += fmt::format("### {}: **{}** geomean speedup ({} tier)\n\n", title,
                      format_ratio(best.report.best->geomean_speedup), best.report.best->tier);
    md += fmt::format("Best: `{}` (candidate {}) from run {}, strategy {} ({}). {} runs, {}.\n\n",
                      config_text(best), best.report.best->candidate.value(), best.report.run.value(),
                      best.strategy, best.phase, report.runs.size(), report.status);
    md += best_sizes_markdown(*best.report.best);
  } else {
    md += fmt::format("### {}: no candidate passed verification\n\n{} runs, {}.\n", title, report.runs.size(),
                      report.status);
  }
  md +=
      "\n| run | phase | strategy | status | candidates / evaluations | best | configuration |\n"
      "|---:|---|---|---|---:|---:|---|\n";
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    SessionReportRun const& run = report.runs[i];
    md += fmt::format("| {}{} | {} | {} | {} | {} | {} | {} |\n", run.report.run.value(),
                      report.best_run == i ? " ★" : "", markdown_cell(run.phase), markdown_cell(run.strategy),
                      run.report.status, evaluations_text(run.report), best_text(run.report),
                      markdown_cell(config_text(run)));
  }
  md += fmt::format(
      "\nA run in detail: `kopt report RUN`; the best kernel: `kopt export --session {} -o best.cu`.\n",
      report.session.value());
  return md;
}

std::string render_session_html(SessionReport const& report) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  html += fmt::format("<title>kopt session {} · {}</title>", report.session.value(),
                      markup_escape(report.task_name));
  html += "<style>";
  html += report_style();
  html += "</style></head><body><main>";

  html += "<header class=\"top\">";
  html += fmt::format(R"(<h1>{} <span class="sub">· session {}</span> <span class="badge {}">{}</span></h1>)",
                      markup_escape(report.task_name), report.session.value(), status_tone(report.status),
                      markup_escape(report.status));
  html += "<dl class=\"meta\">";
  auto const meta = [&](char const* label, std::string const& value) {
    html +=
        fmt::format("<div><dt>{}</dt><dd>{}</dd></div>", label, markup_escape(value.empty() ? "-" : value));
  };
  meta("task folder", report.task_dir);
  meta("kind", report.kind);
  meta("runs", std::to_string(report.runs.size()));
  auto const option = [&](char const* name) {  // the options as recorded; "" when absent
    if (!report.options.is_object() || !report.options.contains(name)) return std::string();
    auto const& value = report.options[name];
    return value.is_string() ? value.get<std::string>() : value.dump();
  };
  meta("search", option("search"));
  meta("budget", option("budget").empty() ? "" : option("budget") + " evaluations");
  meta("objective", option("objective"));
  meta("started", report.started_at);
  meta("finished", report.finished_at.value_or("-"));
  html += "</dl></header>";

  html +=
      "<section id=\"runs\"><h2>Strategy runs</h2><table><thead><tr><th class=\"num\">run</th>"
      "<th>phase</th><th>strategy</th><th>status</th><th class=\"num\">candidates / evaluations</th>"
      "<th class=\"num\">best</th><th>configuration</th></tr></thead><tbody>";
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    SessionReportRun const& run = report.runs[i];
    html += fmt::format(
        R"(<tr><td class="num"><a href="#run-{0}">{0}</a>{1}</td><td>{2}</td><td class="mono">{3}</td>)"
        R"(<td><span class="badge {4}">{5}</span></td><td class="num">{6}</td><td class="num">{7}</td>)"
        R"(<td class="mono">{8}</td></tr>)",
        run.report.run.value(), report.best_run == i ? " ★" : "", markup_escape(run.phase),
        markup_escape(run.strategy), status_tone(run.report.status), markup_escape(run.report.status),
        evaluations_text(run.report), markup_escape(best_text(run.report)), markup_escape(config_text(run)));
  }
  html += "</tbody></table></section>";

  if (report.best_run) {
    SessionReportRun const& best = report.runs[*report.best_run];
    html += fmt::format("<p class=\"muted\">The overall best comes from run {} ({}, {}).</p>",
                        best.report.run.value(), markup_escape(best.strategy), markup_escape(best.phase));
    html += best_section_html(best.report);
  } else {
    html +=
        "<section id=\"best\"><h2>Best candidate</h2><p class=\"muted\">No candidate of this session "
        "passed verification; each run's report says why.</p></section>";
  }
  for (SessionReportRun const& run : report.runs) {
    html += fmt::format(R"(<section id="run-{0}"><h2>Run {0} · {1} · {2}</h2>)", run.report.run.value(),
                        markup_escape(run.phase), markup_escape(run.strategy));
    html += fmt::format(
        "<p>{} search, best {}, {} candidates / {} evaluations. In detail: <code>kopt report "
        "{}</code></p>",
        markup_escape(run.report.strategy), markup_escape(best_text(run.report)),
        run.report.candidates.size(), run.report.evaluations.size(), run.report.run.value());
    html += render_progress_svg(run.report);
    html += "</section>";
  }
  html += fmt::format("<footer>kopt report · session {} · {}</footer>", report.session.value(),
                      markup_escape(std::string(kSessionReportSchema)));
  html += "</main></body></html>\n";
  return html;
}

nlohmann::json to_json(SessionReport const& report) {
  nlohmann::json runs = nlohmann::json::array();
  for (SessionReportRun const& run : report.runs) {
    runs.push_back({{"run", run.report.run.value()},
                    {"strategy", run.strategy},
                    {"phase", run.phase},
                    {"status", run.report.status},
                    {"search", run.report.strategy},
                    {"candidates", run.report.candidates.size()},
                    {"evaluations", run.report.evaluations.size()},
                    {"best", best_json(run.report.best)}});
  }
  nlohmann::json best = nullptr;
  if (report.best_run) {
    SessionReportRun const& run = report.runs[*report.best_run];
    best = best_json(run.report.best);
    best["run"] = run.report.run.value();
    best["strategy"] = run.strategy;
    best["phase"] = run.phase;
  }
  return {{"schema", std::string(kSessionReportSchema)},
          {"session", report.session.value()},
          {"kind", report.kind},
          {"task", report.task_name},
          {"task_dir", report.task_dir},
          {"status", report.status},
          {"started_at", report.started_at},
          {"finished_at", report.finished_at ? nlohmann::json(*report.finished_at) : nlohmann::json(nullptr)},
          {"options", report.options},
          {"best", best},
          {"runs", runs}};
}

}  // namespace kopt
