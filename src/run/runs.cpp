// Reading runs back: how a run was asked (its options document), the `kopt runs` listing (sessions with
// their runs, and the runs of no session), `kopt export` of a run or a session.
#include "kopt/runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "kopt/task.hpp"
#include "kopt/text.hpp"

namespace kopt {

Result<RunRequest> run_request_from_json(nlohmann::json const& json, RunId run) {
  auto bad = [&](std::string const& field, std::string const& expected) {
    return make_error(ErrorCode::invalid_spec, "run " + std::to_string(run.value()) + ": options." + field +
                                                   ": expected " + expected + " (not a kopt optimize run?)");
  };
  if (!json.is_object() || json.value("schema", "") != "kopt.optimize/1")
    return bad("schema", "\"kopt.optimize/1\"");
  RunRequest request;
  if (!json.contains("strategy") || !json["strategy"].is_string()) return bad("strategy", "a string");
  request.strategy = json["strategy"].get<std::string>();
  if (!json.contains("source") || !json["source"].is_string()) return bad("source", "the source text");
  request.source = json["source"].get<std::string>();
  request.source_path = json.value("source_path", "");
  if (json.contains("flags")) {
    if (!json["flags"].is_array()) return bad("flags", "an array of strings");
    for (auto const& flag : json["flags"]) {
      if (!flag.is_string()) return bad("flags", "an array of strings");
      request.flags.push_back(flag.get<std::string>());
    }
  }
  request.confirm = json.value("confirm", true);
  request.search_memory = json.value("search_memory", false);
  if (json.contains("objective")) {
    auto const& objective = json["objective"];
    auto const parsed =
        objective.is_string() ? optimize_objective_from_string(objective.get<std::string>()) : std::nullopt;
    if (!parsed) return bad("objective", "\"runtime\", \"energy\" or \"composite\"");
    request.objective = *parsed;
  }
  request.document = json;
  return request;
}

Result<RunInfo> load_run_info(Store& store, RunId run) {
  auto runs = store.list_runs();
  if (!runs) return runs.error();
  for (StoredRun const& stored : *runs) {
    if (stored.id != run) continue;
    auto request = run_request_from_json(stored.run.options, run);
    if (!request) return request.error();
    request->seed = stored.run.seed;
    auto const& budget = stored.run.budget;
    if (budget.contains("evaluations") && budget["evaluations"].is_number_unsigned())
      request->max_evaluations = budget["evaluations"].get<std::size_t>();
    if (budget.contains("seconds") && budget["seconds"].is_number())
      request->max_wall_seconds = budget["seconds"].get<double>();
    RunInfo info;
    info.id = stored.id;
    info.status = std::string(to_string(stored.status));
    info.task_name = stored.run.task_name;
    info.task_dir = stored.run.task_dir;
    info.request = std::move(*request);
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

Result<ExportedCandidate> write_best(BestCandidate const& found, std::filesystem::path const& task_dir,
                                     std::filesystem::path const& out, bool even_if_slower) {
  ExportedCandidate exported;
  exported.run = found.candidate.run;
  exported.candidate = found.candidate.id;
  exported.tier = found.evaluation.evaluation.tier;
  exported.knobs = found.candidate.candidate.knobs;
  exported.geomean_speedup = found.evaluation.evaluation.geomean_speedup.value_or(0.0);
  exported.source = found.candidate.candidate.source;
  if (exported.geomean_speedup < 1.0 && !even_if_slower) {
    auto const task = load_task(task_dir);
    if (!task) {
      return make_error(
          ErrorCode::not_found,
          fmt::format("the best candidate is slower than the reference ({:.3g}x), so the reference "
                      "is what to keep, but the task cannot be read: {} (--even-if-slower exports "
                      "the candidate)",
                      exported.geomean_speedup, task.error().message));
    }
    auto reference = read_text_file(task->reference.path);
    if (!reference)
      return make_error(ErrorCode::io_error, "cannot read the reference " + task->reference.path.string());
    exported.source = std::move(*reference);
    exported.reference_kept = true;
    exported.reference = task->reference.path;
  }
  std::ofstream file(out, std::ios::binary);
  file << exported.source;
  file.close();
  if (!file) return make_error(ErrorCode::io_error, fmt::format("-o: cannot write '{}'", out.string()));
  return exported;
}

}  // namespace

Result<ExportedCandidate> export_best(Store& store, RunId run, std::filesystem::path const& out,
                                      bool even_if_slower) {
  auto loaded = load_run_info(store, run);
  if (!loaded) return loaded.error();
  auto best = store.best_verified_candidate(run);
  if (!best) return best.error();
  if (!*best) {
    return make_error(
        ErrorCode::not_found,
        fmt::format("run {}: no candidate passed verification (nothing to export)", run.value()));
  }
  return write_best(**best, loaded->task_dir, out, even_if_slower);
}

Result<ExportedCandidate> export_session_best(Store& store, SessionId session,
                                              std::filesystem::path const& out, bool even_if_slower) {
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
  return write_best(**best, loaded->session.task_dir, out, even_if_slower);
}

}  // namespace kopt
