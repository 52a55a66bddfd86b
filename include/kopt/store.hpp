// Persistent store for `kopt optimize`: runs, candidates, evaluations and search memory in one SQLite
// database per project (default .kopt/kopt.db). WAL journal, one transaction per write, so a crash or
// `kill -9` loses at most the write in flight. The schema is versioned (PRAGMA user_version) and
// migrated on open by writers; readers open the file read-only and never change it. See docs/store.md.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/candidate_status.hpp"
#include "kopt/result.hpp"
#include "kopt/strong_id.hpp"

namespace kopt {

using RunId = StrongId<struct RunIdTag>;
using EvaluationId = StrongId<struct EvaluationIdTag>;
using InsightId = StrongId<struct InsightIdTag>;
using LlmCallId = StrongId<struct LlmCallIdTag>;
using SessionId = StrongId<struct SessionIdTag>;
// Content hash of a candidate (source, mode, knobs, flags), computed by the caller; opaque to the store.
using CandidateKey = StrongId<struct CandidateKeyTag, std::string>;

// The schema version this kopt writes; opening a database with a higher user_version is an error.
int store_schema_version() noexcept;

// .kopt/kopt.db under the current directory.
std::filesystem::path default_store_path();

// How a Store opens its file (docs/store.md, "Opening a store").
enum class StoreAccess {
  // Readers (`kopt runs`, `report`, `export`): the file must exist (not_found otherwise, naming the path)
  // and is opened SQLITE_OPEN_READONLY: nothing is created and the file is never migrated. A store of an
  // older schema is copied into memory and migrated there, so it reads like a current one.
  read_only,
  // Writers given a path (`--store`): the file is created when missing, but its folder must exist
  // (not_found naming the folder otherwise: a mistyped path is not silently made).
  read_write,
  // Writers on the default path, and the library's callers: the file and its folders are created.
  read_write_create_folders,
};

enum class RunStatus { running, finished, interrupted };
std::string_view to_string(RunStatus status) noexcept;
std::optional<RunStatus> run_status_from_string(std::string_view text) noexcept;

// Where a run sits in a session: the session and the part of it the run is (schema version 7).
struct SessionPart {
  SessionId session;
  std::string strategy;  // the library strategy the run tunes
  std::string phase;     // screen, deepen
};

// What a run was started with.
struct Run {
  std::string task_name;
  std::string task_dir;
  nlohmann::json options = nlohmann::json::object();  // the optimize options, as given
  std::uint64_t seed = 0;
  nlohmann::json budget = nlohmann::json::object();  // e.g. {"evaluations": 200, "seconds": 3600}
  std::optional<SessionPart> session;                // unset: the run belongs to no session
};

struct StoredRun {
  RunId id;
  std::string started_at;                  // ISO 8601 UTC, set by the store
  std::optional<std::string> finished_at;  // set by finish_run
  RunStatus status = RunStatus::running;
  Run run;
};

// One `kopt optimize` over the strategy library (the built-in proposer): several runs, one per strategy and
// phase, that the user lists, reports and exports as one thing (docs/store.md, "sessions").
struct SessionRecord {
  std::string kind = "library";  // what made the session: "library" (propose_and_tune)
  std::string task_name;
  std::string task_dir;
  nlohmann::json options = nlohmann::json::object();  // the proposer's options, as given
};

struct StoredSession {
  SessionId id;
  std::string started_at;
  std::optional<std::string> finished_at;
  RunStatus status = RunStatus::running;
  SessionRecord session;
  std::vector<RunId> runs;  // its runs, oldest first
};

// A candidate kernel as proposed by the search.
struct Candidate {
  CandidateKey key;
  std::string source;
  nlohmann::json knobs = nlohmann::json::object();
  nlohmann::json flags = nlohmann::json::array();
  std::optional<CandidateId> parent;  // the candidate it was derived from; none for seeds
  std::string action;                 // the search action that produced it ("" for seeds)
  std::string mode;                   // "kernel" or "launcher"
};

struct StoredCandidate {
  CandidateId id;
  RunId run;
  std::string created_at;
  Candidate candidate;
};

// One verification-and-timing result of a candidate on one device and toolkit.
struct EvaluationRecord {
  CandidateStatus status = CandidateStatus::ok;
  std::string message;
  std::string device_name;
  std::string device_uuid;
  std::string driver;
  std::string toolkit;
  std::string tier;                                // "screen" or "confirm"
  std::optional<double> geomean_speedup;           // runtime, over timed size cases
  nlohmann::json sizes = nlohmann::json::array();  // per-size results: medians, IQR, errors, ...
  // The run's objective score (energy gain, composite; docs/optimize.md "Objectives"); unset for runtime.
  // best_candidate ranks by it when set, else by geomean_speedup.
  std::optional<double> objective_score;
  // Where it ran, when that is known (schema version 9): {host, worker, device_index, device_uuid,
  // device_name}. device_uuid above is the run's target, the key evaluations are compared by; on a pool
  // or a farm this is the GPU that did the work.
  nlohmann::json ran_on = nlohmann::json::object();
};

struct StoredEvaluation {
  EvaluationId id;
  CandidateId candidate;
  std::string created_at;
  EvaluationRecord evaluation;
};

// What the bottleneck analysis found about one evaluation on one size case (docs/store.md, "insights"). The
// store keeps the document opaque: a kopt.insight/1 JSON object written and read by kopt_analysis
// (kopt/insight.hpp); size, source, bottleneck and summary are copied out of it for queries and listings.
struct InsightRecord {
  std::string size;
  std::string source;  // "roofline" or "ncu"
  std::string bottleneck;
  std::string summary;
  nlohmann::json document = nlohmann::json::object();
};

struct StoredInsight {
  InsightId id;
  EvaluationId evaluation;
  CandidateId candidate;  // the evaluation's candidate
  std::string created_at;
  InsightRecord insight;
};

// One call to a language model (docs/store.md, "llm_calls"). Holds no prompt text and never the API key:
// the caller redacts `error` and `rationale` (redact_secret) before they are stored.
struct LlmCallRecord {
  std::optional<CandidateId> candidate;  // the candidate the reply became, when there is one
  std::string role;                      // generator, coder, planner, judge
  std::string purpose;                   // what the call was for, e.g. "softmax_warp_per_row, repair 1"
  std::string model;
  std::string backend;         // openai, anthropic, command, replay
  std::string request_sha256;  // llm_request_hash of the request
  std::optional<std::int64_t> input_tokens;
  std::optional<std::int64_t> output_tokens;
  std::optional<std::int64_t> cached_input_tokens;
  std::optional<std::int64_t> reasoning_tokens;
  std::optional<double> cost_usd;  // unknown when the model has no price
  double latency_ms = 0.0;
  bool from_cache = false;
  std::string status = "ok";  // "ok" or "error"
  std::string error;          // why the call failed ("" when ok)
  std::string rationale;      // reply_prose of the reply, redacted ("" without a reply; schema version 6)
};

struct StoredLlmCall {
  LlmCallId id;
  RunId run;
  std::string created_at;
  LlmCallRecord call;
};

// A run with everything recorded for it, in insertion order (for --resume).
struct RunHistory {
  StoredRun run;
  std::vector<StoredCandidate> candidates;
  std::vector<StoredEvaluation> evaluations;
};

struct BestCandidate {
  StoredCandidate candidate;
  StoredEvaluation evaluation;
};

// What past runs learned about one search action on one task family.
struct ActionRecord {
  std::string task_family;
  std::string action;
  std::int64_t tries = 0;
  std::int64_t improvements = 0;
  double mean_log_gain = 0.0;  // mean over tries of log(speedup after / speedup before)
};

// One outcome of a search action: the reward gain of the child over its parent (log of the speedup
// ratio; failures count with their status penalty, docs/search.md).
struct ActionOutcome {
  std::string action;
  double log_gain = 0.0;
};

// A binding of a library strategy's contract to a task that verified against the task's reference
// (docs/strategies.md, "Binding"): a later run of the same task uses it without verifying again, and
// `kopt strategies TASK --write-binding` writes it into the task.
struct VerifiedBinding {
  std::string task_key;  // the task's name and a hash of what a binding depends on (binding_task_key)
  std::string strategy;  // the library strategy
  std::string contract;  // its contract signature as written: a changed contract matches nothing
  std::string binding;   // StrategyBinding::describe(): "c=out, a=x, b=y, n=(n)"
  nlohmann::json roles = nlohmann::json::object();  // role -> the task's parameter, or a value as text
  std::string task_dir;
  std::string verified_at;  // set by the store
};

// A handle on one database file. Movable, not copyable; safe to share between threads (calls are
// serialized). Several handles, in one process or several, may open the same file.
class Store {
 public:
  // Opens the database at `path` as `access` says; writers migrate it. Errors name the path: no such file
  // (read_only), no such folder (read_write), not a database, a newer schema, unreadable, ...
  static Result<Store> open(std::filesystem::path const& path,
                            StoreAccess access = StoreAccess::read_write_create_folders);

  Store(Store&& other) noexcept;
  Store& operator=(Store&& other) noexcept;
  Store(Store const&) = delete;
  Store& operator=(Store const&) = delete;
  ~Store();

  std::filesystem::path const& path() const noexcept;

  // Runs.
  Result<RunId> create_run(Run const& run);
  Status finish_run(RunId run, RunStatus status);  // status must not be `running`
  Result<std::vector<StoredRun>> list_runs();      // oldest first
  Result<RunHistory> load_run(RunId run);

  // Sessions. A run joins a session when it is created (Run::session).
  Result<SessionId> create_session(SessionRecord const& session);
  Status finish_session(SessionId session, RunStatus status);  // status must not be `running`
  Result<std::vector<StoredSession>> list_sessions();          // oldest first, each with its runs
  Result<StoredSession> load_session(SessionId session);       // not_found naming the store
  // The session's result: the best ok candidate of its runs on the confirm tier, else on the screen tier,
  // ranked like best_candidate; `run` of the returned candidate says which run holds it.
  Result<std::optional<BestCandidate>> best_verified_candidate(SessionId session);

  // Candidates. Adding a candidate whose key the run already has returns the existing id.
  Result<CandidateId> add_candidate(RunId run, Candidate const& candidate);
  Result<std::optional<StoredCandidate>> find_candidate(RunId run, CandidateKey const& key);

  // Evaluations.
  Result<EvaluationId> add_evaluation(CandidateId candidate, EvaluationRecord const& evaluation);
  // The dedupe cache: the newest evaluation of any candidate (in any run) with this content key on
  // this device and toolkit. With `tier`, ok evaluations of other tiers are passed over (their
  // timings come from another protocol); failures of any tier still answer.
  Result<std::optional<StoredEvaluation>> find_evaluation_by_key(
      CandidateKey const& key, std::string_view device_uuid, std::string_view toolkit,
      std::optional<std::string_view> tier = std::nullopt);
  // The `ok` evaluation with the highest score in the run, objective_score when set, else geomean_speedup
  // (ties: earliest), optionally restricted to one tier.
  Result<std::optional<BestCandidate>> best_candidate(RunId run,
                                                      std::optional<std::string_view> tier = std::nullopt);
  // What a run offers as its result: the best on the confirm tier, else the best on the screen tier
  // (the evaluation's `tier` says which). Used by `kopt export` and `kopt report` alike.
  Result<std::optional<BestCandidate>> best_verified_candidate(RunId run);

  // Insights. One per (evaluation, source, size): adding it again replaces the row's fields and document
  // and returns the same id, so a replayed write never duplicates. Lists are oldest first.
  Result<InsightId> add_insight(EvaluationId evaluation, InsightRecord const& insight);
  Result<std::vector<StoredInsight>> insights_for_evaluation(EvaluationId evaluation);
  Result<std::vector<StoredInsight>> insights_for_candidate(CandidateId candidate);
  Result<std::vector<StoredInsight>> insights_for_run(RunId run);

  // Search memory: one outcome of `action` on a task of `task_family`.
  Status record_action_outcome(std::string_view task_family, std::string_view action, bool improved,
                               double log_gain);
  Result<std::vector<ActionRecord>> search_memory(std::string_view task_family);  // by action name
  // What a finished run learned, added in one transaction, once: a second call for the same run
  // changes nothing and returns Ok (a resumed run replays outcomes it may already have recorded).
  Status record_search_memory(RunId run, std::string_view task_family,
                              std::vector<ActionOutcome> const& outcomes);

  // Language-model calls of a run (oldest first). The candidate may be set later, once the reply's kernel
  // is recorded as a candidate of the same run.
  Result<LlmCallId> add_llm_call(RunId run, LlmCallRecord const& call);
  Status set_llm_call_candidate(LlmCallId call, CandidateId candidate);
  Result<std::vector<StoredLlmCall>> llm_calls_for_run(RunId run);

  // Verified bindings. Recording one again for the same task key, strategy and contract replaces it (the
  // newest verification wins). Listed newest first.
  Status record_verified_binding(VerifiedBinding const& binding);
  Result<std::vector<VerifiedBinding>> verified_bindings(std::string_view task_key);

  // PRAGMA integrity_check; an Error lists what it found.
  Status check_integrity();

  struct Connection;  // private; named here so the implementation files can share it

 private:
  explicit Store(std::unique_ptr<Connection> connection);
  std::unique_ptr<Connection> connection_;
};

}  // namespace kopt
