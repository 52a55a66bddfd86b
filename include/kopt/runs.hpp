// Reading runs back: how a run was asked, what `kopt runs` lists, the best candidate `kopt export` writes,
// and a run's evaluations by configuration (what a replay answers with). The renderers of these values
// are in the output layer (kopt/run_report.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/result.hpp"
#include "kopt/run_log.hpp"
#include "kopt/store.hpp"

namespace kopt {

// ---- how a run was asked ------------------------------------------------------------------------------

// The run's options document (schema kopt.optimize/1, which optimize, generate and the source search all
// write) and its seed and budget, read back. What one kind of run adds (optimize's MCTS constants,
// generate's request) stays in `document` for that proposer to read.
struct RunRequest {
  std::string strategy;  // mcts, greedy, random, exhaustive, generate, llm, mixed
  std::filesystem::path source_path;
  std::string source;
  std::vector<std::string> flags;
  bool confirm = true;
  bool search_memory = false;                                // runs of older kopt did not use it
  OptimizeObjective objective = OptimizeObjective::runtime;  // runs of older kopt optimised runtime
  std::uint64_t seed = 0;
  std::optional<std::size_t> max_evaluations;  // unset: the budget names no evaluations
  double max_wall_seconds = 0.0;               // 0: no limit
  nlohmann::json document;                     // the options document itself
};
// Reads the document's shared fields; an error names the field (invalid_spec).
Result<RunRequest> run_request_from_json(nlohmann::json const& json, RunId run);

// A run as recorded, with what it was asked.
struct RunInfo {
  RunId id;
  std::string status;  // running, finished, interrupted
  std::string task_name;
  std::filesystem::path task_dir;
  RunRequest request;
};
// Error not_found when the store has no such run.
Result<RunInfo> load_run_info(Store& store, RunId run);

// ---- `kopt runs` --------------------------------------------------------------------------------------

struct RunSummary {
  RunId id;
  std::string task_name;
  std::string task_dir;
  std::string started_at;
  std::optional<std::string> finished_at;
  std::string status;
  std::string strategy;
  std::uint64_t seed = 0;
  std::size_t candidates = 0;
  std::size_t evaluations = 0;
  std::optional<double> best_screen_speedup;
  std::optional<double> best_confirmed_speedup;
  std::optional<SessionId> session;  // the library session the run is part of
  std::string session_strategy;      // its part in it: the library strategy and the phase
  std::string session_phase;
};
Result<std::vector<RunSummary>> summarise_runs(Store& store);  // every run, oldest first

// One library session (`kopt optimize TASK` without --from) and its runs.
struct SessionSummary {
  SessionId id;
  std::string kind;
  std::string task_name;
  std::string task_dir;
  std::string started_at;
  std::optional<std::string> finished_at;
  std::string status;
  std::vector<RunSummary> runs;  // oldest first
  // The session's best verified candidate (confirm tier first): its run, strategy, tier and speedup.
  std::optional<RunId> best_run;
  std::string best_strategy;
  std::string best_tier;
  std::optional<double> best_speedup;
};

// What `kopt runs` lists: the sessions, each with its runs, and the runs of no session, oldest first.
struct RunsListing {
  std::string store;  // the file, named by the text ("no runs in <path>")
  std::vector<SessionSummary> sessions;
  std::vector<RunSummary> runs;
};
Result<RunsListing> list_runs_and_sessions(Store& store);

// ---- `kopt export` ------------------------------------------------------------------------------------

struct ExportedCandidate {
  RunId run;  // the run holding it
  CandidateId candidate;
  nlohmann::json knobs;
  double geomean_speedup = 0.0;
  std::string tier;  // confirm when the run has a confirmed ok candidate, else screen
  std::string source;
  // The best is slower than the reference (geomean speedup below 1): what was written is the task's
  // reference, not the candidate (docs/optimize.md, "Slower than the reference").
  bool reference_kept = false;
  std::filesystem::path reference;  // the reference's file, when reference_kept
};
// The best ok candidate of the run (confirm tier first, else screen), written to `out`; the task's reference
// instead when that candidate is slower than it, unless `even_if_slower`. Error when the reference is to be
// written and the task cannot be read (the message says how to export the candidate anyway).
Result<ExportedCandidate> export_best(Store& store, RunId run, std::filesystem::path const& out,
                                      bool even_if_slower = false);
// The same for the best ok candidate of the session's runs.
Result<ExportedCandidate> export_session_best(Store& store, SessionId session,
                                              std::filesystem::path const& out, bool even_if_slower = false);

// ---- a run's evaluations by configuration -------------------------------------------------------------

// One tier of a recorded run, the newest evaluation per knob setting, and the device it ran on.
struct RunRecording {
  EvaluationTarget target;
  std::map<std::map<std::string, std::string, std::less<>>, EvaluationRecord> by_knobs;
  std::string origin;  // "store PATH run N", for errors
};
// Error not_found when the run holds no evaluation on `tier`.
Result<RunRecording> load_run_recording(Store& store, RunId run, std::string_view tier);
// The report an evaluator would have returned for the recorded evaluation, rebuilt from its per-size JSON.
CandidateReport report_from_record(EvaluationRecord const& stored, std::string const& name,
                                   CandidateMode mode);

}  // namespace kopt
