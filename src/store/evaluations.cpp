#include <string>
#include <utility>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/records.hpp"
#include "store/transaction.hpp"

namespace kopt {

using store_detail::Transaction;

Result<EvaluationId> Store::add_evaluation(CandidateId candidate, EvaluationRecord const& evaluation) {
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto exists = connection_->require_row("candidates", "candidate", candidate.value());
  if (!exists) return std::move(exists).error();
  auto insert = connection_->prepare(
      "INSERT INTO evaluations (candidate_id, status, message, device_name, device_uuid, driver, toolkit, "
      "tier, geomean_speedup, sizes, objective_score, ran_on) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
      "?10, "
      "?11, ?12) RETURNING id");
  if (!insert) return std::move(insert).error();
  insert->bind_int(1, candidate.value());
  insert->bind_text(2, to_string(evaluation.status));
  insert->bind_text(3, evaluation.message);
  insert->bind_text(4, evaluation.device_name);
  insert->bind_text(5, evaluation.device_uuid);
  insert->bind_text(6, evaluation.driver);
  insert->bind_text(7, evaluation.toolkit);
  insert->bind_text(8, evaluation.tier);
  insert->bind_optional_double(9, evaluation.geomean_speedup);
  insert->bind_text(10, store_detail::to_json_text(evaluation.sizes));
  insert->bind_optional_double(11, evaluation.objective_score);
  insert->bind_text(12, store_detail::to_json_text(evaluation.ran_on.is_object() ? evaluation.ran_on
                                                                                 : nlohmann::json::object()));
  auto row = insert->step();
  if (!row) return std::move(row).error();
  if (!*row) return connection_->error("INSERT INTO evaluations returned no id");
  EvaluationId const id(insert->int_column(0));
  auto done = insert->run();
  if (!done) return std::move(done).error();
  auto committed = transaction->commit();
  if (!committed) return std::move(committed).error();
  return id;
}

Result<std::optional<StoredEvaluation>> Store::find_evaluation_by_key(CandidateKey const& key,
                                                                      std::string_view device_uuid,
                                                                      std::string_view toolkit,
                                                                      std::optional<std::string_view> tier) {
  std::lock_guard lock(connection_->mutex);
  auto select =
      connection_->prepare("SELECT " + std::string(store_detail::kEvaluationColumns) +
                           " FROM evaluations e JOIN candidates c ON c.id = e.candidate_id"
                           " WHERE c.content_key = ?1 AND e.device_uuid = ?2 AND e.toolkit = ?3"
                           " AND (?4 IS NULL OR e.tier = ?4 OR e.status <> 'ok') ORDER BY e.id DESC LIMIT 1");
  if (!select) return std::move(select).error();
  select->bind_text(1, key.value());
  select->bind_text(2, device_uuid);
  select->bind_text(3, toolkit);
  if (tier) select->bind_text(4, *tier);
  auto row = select->step();
  if (!row) return std::move(row).error();
  if (!*row) return std::optional<StoredEvaluation>();
  auto evaluation = store_detail::read_evaluation(*select);
  if (!evaluation) return std::move(evaluation).error();
  return std::optional(std::move(*evaluation));
}

Result<std::optional<BestCandidate>> Store::best_verified_candidate(RunId run) {
  auto confirmed = best_candidate(run, std::string_view("confirm"));
  if (!confirmed || *confirmed) return confirmed;
  return best_candidate(run, std::string_view("screen"));
}

Result<std::optional<BestCandidate>> Store::best_candidate(RunId run, std::optional<std::string_view> tier) {
  std::lock_guard lock(connection_->mutex);
  auto exists = connection_->require_row("runs", "run", run.value());
  if (!exists) return std::move(exists).error();
  auto select =
      connection_->prepare("SELECT " + std::string(store_detail::kCandidateColumns) + ", " +
                           std::string(store_detail::kEvaluationColumns) +
                           " FROM evaluations e JOIN candidates c ON c.id = e.candidate_id"
                           " WHERE c.run_id = ?1 AND e.status = 'ok' AND e.geomean_speedup IS NOT NULL"
                           " AND (?2 IS NULL OR e.tier = ?2)"
                           " ORDER BY COALESCE(e.objective_score, e.geomean_speedup) DESC, e.id ASC LIMIT 1");
  if (!select) return std::move(select).error();
  select->bind_int(1, run.value());
  if (tier) select->bind_text(2, *tier);  // unbound parameters are NULL
  return store_detail::read_best_candidate(*select);
}

}  // namespace kopt
