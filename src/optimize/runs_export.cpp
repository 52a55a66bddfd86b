// Reading runs back: load_optimize_run (for --resume), the `kopt runs` listing (sessions with their runs, and
// the runs of no session), `kopt export` of a run or a session.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "kopt/json_values.hpp"
#include "kopt/store.hpp"
#include "kopt/units.hpp"
#include "run_log.hpp"

namespace kopt {

Result<OptimizeRunInfo> load_optimize_run(Store& store, RunId run) {
  auto runs = store.list_runs();
  if (!runs) return runs.error();
  for (StoredRun const& stored : *runs) {
    if (stored.id != run) continue;
    auto options = optimize_detail::options_from_json(stored.run.options, run);
    if (!options) return options.error();
    options->seed = stored.run.seed;
    auto const& budget = stored.run.budget;
    if (budget.contains("evaluations") && budget["evaluations"].is_number_unsigned())
      options->max_evaluations = budget["evaluations"].get<std::size_t>();
    if (budget.contains("seconds") && budget["seconds"].is_number())
      options->max_wall_seconds = budget["seconds"].get<double>();
    OptimizeRunInfo info;
    info.id = stored.id;
    info.status = std::string(to_string(stored.status));
    info.task_name = stored.run.task_name;
    info.task_dir = stored.run.task_dir;
    info.source = stored.run.options["source"].get<std::string>();
    info.options = std::move(*options);
    return info;
  }
  return make_error(ErrorCode::not_found,
                    fmt::format("run {} is not in {}", run.value(), store.path().string()));
}

Result<std::vector<RunSummary>> summarise_runs(Store& store) {
  auto runs = store.list_runs();
  if (!runs) return runs.error();
  std::vector<RunSummary> summaries;
  for (StoredRun const& stored : *runs) {
    RunSummary summary;
    summary.id = stored.id;
    summary.task_name = stored.run.task_name;
    summary.task_dir = stored.run.task_dir;
    summary.started_at = stored.started_at;
    summary.finished_at = stored.finished_at;
    summary.status = std::string(to_string(stored.status));
    summary.strategy = stored.run.options.is_object() ? stored.run.options.value("strategy", "") : "";
    summary.seed = stored.run.seed;
    if (stored.run.session) {
      summary.session = stored.run.session->session;
      summary.session_strategy = stored.run.session->strategy;
      summary.session_phase = stored.run.session->phase;
    }
    auto history = store.load_run(stored.id);
    if (!history) return history.error();
    summary.candidates = history->candidates.size();
    summary.evaluations = history->evaluations.size();
    auto screen = store.best_candidate(stored.id, "screen");
    if (!screen) return screen.error();
    if (*screen) summary.best_screen_speedup = (*screen)->evaluation.evaluation.geomean_speedup;
    auto confirm = store.best_candidate(stored.id, "confirm");
    if (!confirm) return confirm.error();
    if (*confirm) summary.best_confirmed_speedup = (*confirm)->evaluation.evaluation.geomean_speedup;
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

Result<RunsListing> list_runs_and_sessions(Store& store) {
  auto runs = summarise_runs(store);
  if (!runs) return runs.error();
  auto sessions = store.list_sessions();
  if (!sessions) return sessions.error();
  RunsListing listing;
  listing.store = store.path().string();
  for (StoredSession const& stored : *sessions) {
    SessionSummary session;
    session.id = stored.id;
    session.kind = stored.session.kind;
    session.task_name = stored.session.task_name;
    session.task_dir = stored.session.task_dir;
    session.started_at = stored.started_at;
    session.finished_at = stored.finished_at;
    session.status = std::string(to_string(stored.status));
    auto best = store.best_verified_candidate(stored.id);
    if (!best) return best.error();
    if (*best) {
      session.best_run = (*best)->candidate.run;
      session.best_tier = (*best)->evaluation.evaluation.tier;
      session.best_speedup = (*best)->evaluation.evaluation.geomean_speedup;
    }
    listing.sessions.push_back(std::move(session));
  }
  for (RunSummary& run : *runs) {
    auto const owner =
        std::find_if(listing.sessions.begin(), listing.sessions.end(),
                     [&](SessionSummary const& s) { return run.session && s.id == *run.session; });
    if (owner == listing.sessions.end()) {
      listing.runs.push_back(std::move(run));
      continue;
    }
    if (owner->best_run && *owner->best_run == run.id) owner->best_strategy = run.session_strategy;
    owner->runs.push_back(std::move(run));
  }
  return listing;
}

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

namespace {

Result<ExportedCandidate> write_best(BestCandidate const& found, std::filesystem::path const& out) {
  ExportedCandidate exported;
  exported.run = found.candidate.run;
  exported.candidate = found.candidate.id;
  exported.tier = found.evaluation.evaluation.tier;
  exported.knobs = found.candidate.candidate.knobs;
  exported.geomean_speedup = found.evaluation.evaluation.geomean_speedup.value_or(0.0);
  exported.source = found.candidate.candidate.source;
  std::ofstream file(out, std::ios::binary);
  file << exported.source;
  file.close();
  if (!file) return make_error(ErrorCode::io_error, fmt::format("-o: cannot write '{}'", out.string()));
  return exported;
}

}  // namespace

Result<ExportedCandidate> export_best(Store& store, RunId run, std::filesystem::path const& out) {
  auto loaded = load_optimize_run(store, run);
  if (!loaded) return loaded.error();
  auto best = store.best_verified_candidate(run);
  if (!best) return best.error();
  if (!*best) {
    return make_error(
        ErrorCode::not_found,
        fmt::format("run {}: no candidate passed verification (nothing to export)", run.value()));
  }
  return write_best(**best, out);
}

Result<ExportedCandidate> export_session_best(Store& store, SessionId session,
                                              std::filesystem::path const& out) {
  auto loaded = store.load_session(session);
  if (!loaded) return loaded.error();
  auto best = store.best_verified_candidate(session);
  if (!best) return best.error();
  if (!*best) {
    return make_error(
        ErrorCode::not_found,
        fmt::format("session {} ({} runs): no candidate passed verification (nothing to export)",
                    session.value(), loaded->runs.size()));
  }
  return write_best(**best, out);
}

}  // namespace kopt
