#include "store/migrations.hpp"

#include <array>
#include <string>
#include <utility>

#include "store/connection.hpp"
#include "store/transaction.hpp"

namespace kopt::store_detail {
namespace {

// Version 1: the first schema. Timestamps are ISO 8601 UTC with milliseconds; JSON columns are text.
constexpr std::string_view kSchemaV1 = R"sql(
CREATE TABLE runs (
  id          INTEGER PRIMARY KEY,
  task_name   TEXT NOT NULL,
  task_dir    TEXT NOT NULL,
  started_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  finished_at TEXT,
  options     TEXT NOT NULL,
  seed        INTEGER NOT NULL,
  status      TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted')),
  budget      TEXT NOT NULL
);
CREATE INDEX runs_by_task ON runs (task_name);

CREATE TABLE candidates (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs (id),
  content_key TEXT NOT NULL,
  source      TEXT NOT NULL,
  knobs       TEXT NOT NULL,
  flags       TEXT NOT NULL,
  parent_id   INTEGER REFERENCES candidates (id),
  action      TEXT NOT NULL,
  mode        TEXT NOT NULL,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (run_id, content_key)
);
CREATE INDEX candidates_by_key ON candidates (content_key);

CREATE TABLE evaluations (
  id              INTEGER PRIMARY KEY,
  candidate_id    INTEGER NOT NULL REFERENCES candidates (id),
  status          TEXT NOT NULL,
  message         TEXT NOT NULL,
  device_name     TEXT NOT NULL,
  device_uuid     TEXT NOT NULL,
  driver          TEXT NOT NULL,
  toolkit         TEXT NOT NULL,
  tier            TEXT NOT NULL,
  geomean_speedup REAL,
  sizes           TEXT NOT NULL,
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX evaluations_by_candidate ON evaluations (candidate_id, device_uuid, toolkit);

CREATE TABLE search_memory (
  task_family   TEXT NOT NULL,
  action        TEXT NOT NULL,
  tries         INTEGER NOT NULL,
  improvements  INTEGER NOT NULL,
  mean_log_gain REAL NOT NULL,
  updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (task_family, action)
) WITHOUT ROWID;

PRAGMA application_id = 1802465396;
)sql";

// Version 2: whether a run's search-memory outcomes were added (Store::record_search_memory is once per
// run, so a resumed run that finishes twice, or a crash between the two writes, never counts twice).
constexpr char const* kRunsMemoryRecorded =
    "ALTER TABLE runs ADD COLUMN memory_recorded INTEGER NOT NULL DEFAULT 0;";

// Version 3: what the bottleneck analysis found about an evaluation (kopt.insight/1 documents, one per
// evaluation, source and size; candidate_id repeats the evaluation's candidate so that a search node's
// insights are one indexed lookup). The store keeps the documents opaque; kopt_analysis reads them.
constexpr char const* kInsights = R"sql(
CREATE TABLE insights (
  id            INTEGER PRIMARY KEY,
  evaluation_id INTEGER NOT NULL REFERENCES evaluations (id),
  candidate_id  INTEGER NOT NULL REFERENCES candidates (id),
  size          TEXT NOT NULL,
  source        TEXT NOT NULL,
  bottleneck    TEXT NOT NULL,
  summary       TEXT NOT NULL,
  document      TEXT NOT NULL,
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (evaluation_id, source, size)
);
CREATE INDEX insights_by_candidate ON insights (candidate_id);
)sql";

// Version 4: the run's objective score of an evaluation (energy gain, composite; NULL for runtime, whose
// score is geomean_speedup). best_candidate ranks by COALESCE(objective_score, geomean_speedup).
constexpr char const* kObjectiveScore = "ALTER TABLE evaluations ADD COLUMN objective_score REAL;";

// Version 5: every call kopt made to a language model (`kopt generate`, docs/llm.md): the run, the candidate
// the reply became (NULL until it is known, or when the reply held no kernel), the role and what the call
// was for, model, backend kind, the request's SHA-256, token counts, cost, latency and outcome. Never the
// prompt's secrets: the API key is redacted from `error` by the caller and nothing else holds it.
constexpr char const* kLlmCalls = R"sql(
CREATE TABLE llm_calls (
  id                  INTEGER PRIMARY KEY,
  run_id              INTEGER NOT NULL REFERENCES runs (id),
  candidate_id        INTEGER REFERENCES candidates (id),
  role                TEXT NOT NULL,
  purpose             TEXT NOT NULL,
  model               TEXT NOT NULL,
  backend             TEXT NOT NULL,
  request_sha256      TEXT NOT NULL,
  input_tokens        INTEGER,
  output_tokens       INTEGER,
  cached_input_tokens INTEGER,
  reasoning_tokens    INTEGER,
  cost_usd            REAL,
  latency_ms          REAL NOT NULL,
  from_cache          INTEGER NOT NULL DEFAULT 0,
  status              TEXT NOT NULL CHECK (status IN ('ok', 'error')),
  error               TEXT NOT NULL,
  created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX llm_calls_by_run ON llm_calls (run_id);
)sql";

// Version 6: the prose of each LLM call's reply around its code (reply_prose, redacted like `error`): the
// rationale the run report shows next to the step the reply became. '' for calls without a reply.
constexpr char const* kLlmCallRationale =
    "ALTER TABLE llm_calls ADD COLUMN rationale TEXT NOT NULL DEFAULT '';";

// Version 7: sessions. A `kopt optimize` over the strategy library makes one run per strategy and phase; the
// session groups them so that they are listed, reported and exported as one thing. A run names its session
// and its part in it (strategy, phase); runs of older stores, and runs made by `--from`, have none.
constexpr char const* kSessions = R"sql(
CREATE TABLE sessions (
  id          INTEGER PRIMARY KEY,
  kind        TEXT NOT NULL,
  task_name   TEXT NOT NULL,
  task_dir    TEXT NOT NULL,
  options     TEXT NOT NULL,
  started_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  finished_at TEXT,
  status      TEXT NOT NULL CHECK (status IN ('running', 'finished', 'interrupted'))
);
ALTER TABLE runs ADD COLUMN session_id INTEGER REFERENCES sessions (id);
ALTER TABLE runs ADD COLUMN session_strategy TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN session_phase TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_by_session ON runs (session_id);
)sql";

// Version 8: bindings of library strategies that verified against a task's reference (docs/strategies.md,
// "Binding"), so that a second run of the same task uses them without verifying again. Keyed by the task
// (its name and a hash of what a binding depends on), the strategy and its contract as written: a changed
// task or contract finds nothing and verifies again.
constexpr char const* kVerifiedBindings = R"sql(
CREATE TABLE verified_bindings (
  task_key    TEXT NOT NULL,
  strategy    TEXT NOT NULL,
  contract    TEXT NOT NULL,
  binding     TEXT NOT NULL,
  roles       TEXT NOT NULL,
  task_dir    TEXT NOT NULL,
  verified_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (task_key, strategy, contract)
);
)sql";

// Version 9: where each evaluation ran (a GPU of a pool, a farm worker), beside the run's target that
// device_uuid holds (docs/store.md, "evaluations").
constexpr char const* kEvaluationsRanOn =
    "ALTER TABLE evaluations ADD COLUMN ran_on TEXT NOT NULL DEFAULT '{}';";

constexpr std::array kMigrations = {
    Migration{"runs, candidates, evaluations, search_memory", kSchemaV1},
    Migration{"runs.memory_recorded", kRunsMemoryRecorded},
    Migration{"insights", kInsights},
    Migration{"evaluations.objective_score", kObjectiveScore},
    Migration{"llm_calls", kLlmCalls},
    Migration{"llm_calls.rationale", kLlmCallRationale},
    Migration{"sessions, runs.session_id", kSessions},
    Migration{"verified_bindings", kVerifiedBindings},
    Migration{"evaluations.ran_on", kEvaluationsRanOn},
};

}  // namespace

std::span<Migration const> store_migrations() {
  return kMigrations;
}

Result<int> read_user_version(Store::Connection& connection) {
  auto statement = connection.prepare("PRAGMA user_version");
  if (!statement) return std::move(statement).error();
  auto row = statement->step();
  if (!row) return std::move(row).error();
  if (!*row) return connection.error("PRAGMA user_version returned no row");
  auto const version = statement->int_column(0);
  // kopt's versions count up from 0 (an empty file); anything below was written by something else, and
  // would index the migrations out of range.
  if (version < 0) {
    return make_error(
        ErrorCode::invalid_argument,
        "store " + connection.path.string() + ": schema version " + std::to_string(version) +
            " (PRAGMA user_version) is not one kopt writes (0 up to " +
            std::to_string(store_migrations().size()) +
            "); the file was changed by another program or is damaged (use another store path)");
  }
  return static_cast<int>(version);
}

Status apply_migrations(Store::Connection& connection, std::span<Migration const> migrations) {
  int const latest = static_cast<int>(migrations.size());
  auto newer = [&](int version) {
    return make_error(ErrorCode::invalid_argument,
                      "store " + connection.path.string() + ": schema version " + std::to_string(version) +
                          " was written by a newer kopt; this kopt reads schema versions up to " +
                          std::to_string(latest) + " (use a newer kopt or another store path)");
  };
  auto initial = read_user_version(connection);
  if (!initial) return std::move(initial).error();
  if (*initial > latest) return newer(*initial);
  for (int target = *initial + 1; target <= latest; ++target) {
    // Another process may be migrating the same file: re-read the version under the write lock.
    auto transaction = Transaction::begin(connection);
    if (!transaction) return std::move(transaction).error();
    auto version = read_user_version(connection);
    if (!version) return std::move(version).error();
    if (*version > latest) return newer(*version);
    if (*version >= target) continue;
    auto const& migration = migrations[static_cast<std::size_t>(target - 1)];
    auto applied = connection.exec(migration.sql);
    if (!applied) {
      return make_error(applied.error().code, applied.error().message + " (migration to schema version " +
                                                  std::to_string(target) + ": " +
                                                  std::string(migration.description) + ")");
    }
    auto bumped = connection.exec("PRAGMA user_version = " + std::to_string(target));
    if (!bumped) return bumped;
    auto committed = transaction->commit();
    if (!committed) return committed;
  }
  return Ok{};
}

}  // namespace kopt::store_detail
