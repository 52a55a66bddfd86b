// `kopt runs` for people and programs: the listing read by list_runs_and_sessions (kopt/runs.hpp) as a
// table and as kopt.runs/2 JSON.
#include <fmt/format.h>

#include "kopt/json_values.hpp"
#include "kopt/run_report.hpp"
#include "kopt/units.hpp"

namespace kopt {
namespace {

nlohmann::json optional_text(std::optional<std::string> const& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

std::string ratio_or_dash(std::optional<double> value) {
  return value ? format_ratio(*value) : std::string("-");
}

nlohmann::json run_json(RunSummary const& run) {
  nlohmann::json json = {
      {"id", run.id.value()},
      {"task", run.task_name},
      {"task_dir", run.task_dir},
      {"started_at", run.started_at},
      {"finished_at", optional_text(run.finished_at)},
      {"status", run.status},
      {"strategy", run.strategy},
      {"seed", run.seed},
      {"candidates", run.candidates},
      {"evaluations", run.evaluations},
      {"best_screen_speedup", number_or_null(run.best_screen_speedup)},
      {"best_confirmed_speedup", number_or_null(run.best_confirmed_speedup)},
      {"session", run.session ? nlohmann::json(run.session->value()) : nlohmann::json(nullptr)}};
  if (run.session) {
    json["library_strategy"] = run.session_strategy;
    json["phase"] = run.session_phase;
  }
  return json;
}

constexpr char const* kRunRow = "{:>6}  {:<16}  {:<11}  {:<10}  {:>10}  {:>11}  {:>9}  {:>9}  {:<19}  {}\n";

std::string run_line(RunSummary const& run, std::string const& indent) {
  std::string part;
  if (run.session) part = run.session_phase + " " + run.session_strategy;
  return indent + fmt::format(kRunRow, run.id.value(), run.task_name, run.status, run.strategy,
                              run.candidates, run.evaluations, ratio_or_dash(run.best_screen_speedup),
                              ratio_or_dash(run.best_confirmed_speedup), run.started_at.substr(0, 19), part);
}

std::string session_line(SessionSummary const& session) {
  std::string best = "no verified candidate";
  if (session.best_run) {
    best = fmt::format("best {} on the {} tier (run {}, {})", ratio_or_dash(session.best_speedup),
                       session.best_tier, session.best_run->value(), session.best_strategy);
  }
  return fmt::format("session {}: {}, {}, {} run{}, {}, started {}\n", session.id.value(), session.task_name,
                     session.status, session.runs.size(), session.runs.size() == 1 ? "" : "s", best,
                     session.started_at.substr(0, 19));
}

}  // namespace

nlohmann::json runs_to_json(RunsListing const& listing) {
  nlohmann::json sessions = nlohmann::json::array();
  for (SessionSummary const& session : listing.sessions) {
    nlohmann::json runs = nlohmann::json::array();
    for (RunSummary const& run : session.runs) runs.push_back(run_json(run));
    nlohmann::json best = nullptr;
    if (session.best_run) {
      best = {{"run", session.best_run->value()},
              {"strategy", session.best_strategy},
              {"tier", session.best_tier},
              {"speedup", number_or_null(session.best_speedup)}};
    }
    sessions.push_back({{"id", session.id.value()},
                        {"kind", session.kind},
                        {"task", session.task_name},
                        {"task_dir", session.task_dir},
                        {"started_at", session.started_at},
                        {"finished_at", optional_text(session.finished_at)},
                        {"status", session.status},
                        {"best", best},
                        {"runs", runs}});
  }
  nlohmann::json runs = nlohmann::json::array();
  for (RunSummary const& run : listing.runs) runs.push_back(run_json(run));
  return {{"schema", "kopt.runs/2"}, {"store", listing.store}, {"sessions", sessions}, {"runs", runs}};
}

std::string render_runs(RunsListing const& listing) {
  if (listing.sessions.empty() && listing.runs.empty()) return "no runs in " + listing.store + "\n";
  std::string text = fmt::format(kRunRow, "id", "task", "status", "strategy", "candidates", "evaluations",
                                 "best", "confirmed", "started", "part");
  // Sessions and the runs of no session interleaved, oldest first (a session by its first run).
  std::size_t next_run = 0;
  for (SessionSummary const& session : listing.sessions) {
    while (next_run < listing.runs.size() && listing.runs[next_run].started_at < session.started_at)
      text += run_line(listing.runs[next_run++], "");
    text += session_line(session);
    for (RunSummary const& run : session.runs) text += run_line(run, "  ");
  }
  while (next_run < listing.runs.size()) text += run_line(listing.runs[next_run++], "");
  return text;
}

}  // namespace kopt
