#include <string>
#include <utility>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/records.hpp"
#include "store/transaction.hpp"

namespace kopt {

using store_detail::Transaction;

Result<RunId> Store::create_run(Run const& run) {
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  if (run.session) {
    auto session_exists = connection_->require_row("sessions", "session", run.session->session.value());
    if (!session_exists) return std::move(session_exists).error();
  }
  auto insert = connection_->prepare(
      "INSERT INTO runs (task_name, task_dir, options, seed, status, budget, session_id, session_strategy, "
      "session_phase) VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6, ?7, ?8) RETURNING id");
  if (!insert) return std::move(insert).error();
  insert->bind_text(1, run.task_name);
  insert->bind_text(2, run.task_dir);
  insert->bind_text(3, store_detail::to_json_text(run.options));
  insert->bind_int(4, static_cast<std::int64_t>(run.seed));
  insert->bind_text(5, store_detail::to_json_text(run.budget));
  insert->bind_optional_int(6, run.session ? std::optional(run.session->session.value()) : std::nullopt);
  insert->bind_text(7, run.session ? run.session->strategy : std::string());
  insert->bind_text(8, run.session ? run.session->phase : std::string());
  auto row = insert->step();
  if (!row) return std::move(row).error();
  if (!*row) return connection_->error("INSERT INTO runs returned no id");
  RunId const id(insert->int_column(0));
  auto done = insert->run();
  if (!done) return std::move(done).error();
  auto committed = transaction->commit();
  if (!committed) return std::move(committed).error();
  return id;
}

Status Store::finish_run(RunId run, RunStatus status) {
  if (status == RunStatus::running) {
    return make_error(ErrorCode::invalid_argument, "store " + connection_->path.string() +
                                                       ": finish_run of run " + std::to_string(run.value()) +
                                                       " needs status finished or interrupted, not running");
  }
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto exists = connection_->require_row("runs", "run", run.value());
  if (!exists) return exists;
  auto update = connection_->prepare(
      "UPDATE runs SET status = ?1, finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?2");
  if (!update) return std::move(update).error();
  update->bind_text(1, to_string(status));
  update->bind_int(2, run.value());
  auto done = update->run();
  if (!done) return done;
  return transaction->commit();
}

Result<std::vector<StoredRun>> Store::list_runs() {
  std::lock_guard lock(connection_->mutex);
  auto select =
      connection_->prepare("SELECT " + std::string(store_detail::kRunColumns) + " FROM runs r ORDER BY r.id");
  if (!select) return std::move(select).error();
  std::vector<StoredRun> runs;
  while (true) {
    auto row = select->step();
    if (!row) return std::move(row).error();
    if (!*row) break;
    auto run = store_detail::read_run(*select);
    if (!run) return std::move(run).error();
    runs.push_back(std::move(*run));
  }
  return runs;
}

Result<RunHistory> Store::load_run(RunId run) {
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin_read(*connection_);  // one snapshot for the three queries
  if (!transaction) return std::move(transaction).error();
  RunHistory history;

  auto select_run = connection_->prepare("SELECT " + std::string(store_detail::kRunColumns) +
                                         " FROM runs r WHERE r.id = ?1");
  if (!select_run) return std::move(select_run).error();
  select_run->bind_int(1, run.value());
  auto row = select_run->step();
  if (!row) return std::move(row).error();
  if (!*row) {
    return make_error(ErrorCode::not_found,
                      "run " + std::to_string(run.value()) + " is not in " + connection_->path.string());
  }
  auto stored_run = store_detail::read_run(*select_run);
  if (!stored_run) return std::move(stored_run).error();
  history.run = std::move(*stored_run);

  auto select_candidates = connection_->prepare("SELECT " + std::string(store_detail::kCandidateColumns) +
                                                " FROM candidates c WHERE c.run_id = ?1 ORDER BY c.id");
  if (!select_candidates) return std::move(select_candidates).error();
  select_candidates->bind_int(1, run.value());
  while (true) {
    auto next = select_candidates->step();
    if (!next) return std::move(next).error();
    if (!*next) break;
    auto candidate = store_detail::read_candidate(*select_candidates);
    if (!candidate) return std::move(candidate).error();
    history.candidates.push_back(std::move(*candidate));
  }

  auto select_evaluations = connection_->prepare(
      "SELECT " + std::string(store_detail::kEvaluationColumns) +
      " FROM evaluations e JOIN candidates c ON c.id = e.candidate_id WHERE c.run_id = ?1 ORDER BY e.id");
  if (!select_evaluations) return std::move(select_evaluations).error();
  select_evaluations->bind_int(1, run.value());
  while (true) {
    auto next = select_evaluations->step();
    if (!next) return std::move(next).error();
    if (!*next) break;
    auto evaluation = store_detail::read_evaluation(*select_evaluations);
    if (!evaluation) return std::move(evaluation).error();
    history.evaluations.push_back(std::move(*evaluation));
  }
  auto ended = transaction->commit();
  if (!ended) return std::move(ended).error();
  return history;
}

}  // namespace kopt
