// Sessions (schema version 7): the runs of one `kopt optimize` over the strategy library, grouped.
#include <string>
#include <utility>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/records.hpp"
#include "store/transaction.hpp"

namespace kopt {

using store_detail::Transaction;

namespace {

// The ids of the session's runs, oldest first.
Result<std::vector<RunId>> session_runs(Store::Connection& connection, SessionId session) {
  auto select = connection.prepare("SELECT id FROM runs WHERE session_id = ?1 ORDER BY id");
  if (!select) return std::move(select).error();
  select->bind_int(1, session.value());
  std::vector<RunId> runs;
  while (true) {
    auto row = select->step();
    if (!row) return std::move(row).error();
    if (!*row) break;
    runs.emplace_back(select->int_column(0));
  }
  return runs;
}

}  // namespace

Result<SessionId> Store::create_session(SessionRecord const& session) {
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto insert = connection_->prepare(
      "INSERT INTO sessions (kind, task_name, task_dir, options, status) "
      "VALUES (?1, ?2, ?3, ?4, 'running') RETURNING id");
  if (!insert) return std::move(insert).error();
  insert->bind_text(1, session.kind);
  insert->bind_text(2, session.task_name);
  insert->bind_text(3, session.task_dir);
  insert->bind_text(4, store_detail::to_json_text(session.options));
  auto row = insert->step();
  if (!row) return std::move(row).error();
  if (!*row) return connection_->error("INSERT INTO sessions returned no id");
  SessionId const id(insert->int_column(0));
  auto done = insert->run();
  if (!done) return std::move(done).error();
  auto committed = transaction->commit();
  if (!committed) return std::move(committed).error();
  return id;
}

Status Store::finish_session(SessionId session, RunStatus status) {
  if (status == RunStatus::running) {
    return make_error(ErrorCode::invalid_argument, "store " + connection_->path.string() +
                                                       ": finish_session of session " +
                                                       std::to_string(session.value()) +
                                                       " needs status finished or interrupted, not running");
  }
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto exists = connection_->require_row("sessions", "session", session.value());
  if (!exists) return exists;
  auto update = connection_->prepare(
      "UPDATE sessions SET status = ?1, finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?2");
  if (!update) return std::move(update).error();
  update->bind_text(1, to_string(status));
  update->bind_int(2, session.value());
  auto done = update->run();
  if (!done) return done;
  return transaction->commit();
}

Result<std::vector<StoredSession>> Store::list_sessions() {
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin_read(*connection_);  // the sessions and their runs from one snapshot
  if (!transaction) return std::move(transaction).error();
  auto select = connection_->prepare("SELECT " + std::string(store_detail::kSessionColumns) +
                                     " FROM sessions s ORDER BY s.id");
  if (!select) return std::move(select).error();
  std::vector<StoredSession> sessions;
  while (true) {
    auto row = select->step();
    if (!row) return std::move(row).error();
    if (!*row) break;
    auto session = store_detail::read_session(*select);
    if (!session) return std::move(session).error();
    sessions.push_back(std::move(*session));
  }
  for (StoredSession& session : sessions) {
    auto runs = session_runs(*connection_, session.id);
    if (!runs) return std::move(runs).error();
    session.runs = std::move(*runs);
  }
  auto ended = transaction->commit();
  if (!ended) return std::move(ended).error();
  return sessions;
}

Result<StoredSession> Store::load_session(SessionId session) {
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin_read(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto select = connection_->prepare("SELECT " + std::string(store_detail::kSessionColumns) +
                                     " FROM sessions s WHERE s.id = ?1");
  if (!select) return std::move(select).error();
  select->bind_int(1, session.value());
  auto row = select->step();
  if (!row) return std::move(row).error();
  if (!*row) {
    return make_error(ErrorCode::not_found, "session " + std::to_string(session.value()) + " is not in " +
                                                connection_->path.string());
  }
  auto stored = store_detail::read_session(*select);
  if (!stored) return std::move(stored).error();
  auto runs = session_runs(*connection_, session);
  if (!runs) return std::move(runs).error();
  stored->runs = std::move(*runs);
  auto ended = transaction->commit();
  if (!ended) return std::move(ended).error();
  return std::move(*stored);
}

Result<std::optional<BestCandidate>> Store::best_verified_candidate(SessionId session) {
  std::lock_guard lock(connection_->mutex);
  auto exists = connection_->require_row("sessions", "session", session.value());
  if (!exists) return std::move(exists).error();
  // Confirmed candidates first (the session confirms only its winner), then the best score, earliest on ties.
  auto select = connection_->prepare(
      "SELECT " + std::string(store_detail::kCandidateColumns) + ", " +
      std::string(store_detail::kEvaluationColumns) +
      " FROM evaluations e JOIN candidates c ON c.id = e.candidate_id JOIN runs r ON r.id = c.run_id"
      " WHERE r.session_id = ?1 AND e.status = 'ok' AND e.geomean_speedup IS NOT NULL"
      " AND e.tier IN ('confirm', 'screen')"
      " ORDER BY e.tier = 'confirm' DESC, COALESCE(e.objective_score, e.geomean_speedup) DESC, e.id ASC"
      " LIMIT 1");
  if (!select) return std::move(select).error();
  select->bind_int(1, session.value());
  return store_detail::read_best_candidate(*select);
}

}  // namespace kopt
