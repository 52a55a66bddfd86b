// Store: insights, the bottleneck analysis of an evaluation (opaque kopt.insight/1 documents).
#include <string>
#include <utility>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/records.hpp"
#include "store/transaction.hpp"

namespace kopt {

using store_detail::Transaction;

namespace {

// Every row the statement returns, decoded.
Result<std::vector<StoredInsight>> read_all(store_detail::Statement& select) {
  std::vector<StoredInsight> insights;
  while (true) {
    auto next = select.step();
    if (!next) return std::move(next).error();
    if (!*next) break;
    auto insight = store_detail::read_insight(select);
    if (!insight) return std::move(insight).error();
    insights.push_back(std::move(*insight));
  }
  return insights;
}

}  // namespace

Result<InsightId> Store::add_insight(EvaluationId evaluation, InsightRecord const& insight) {
  auto invalid = [&](std::string const& what) {
    return make_error(ErrorCode::invalid_argument, "store " + connection_->path.string() +
                                                       ": insight for evaluation " +
                                                       std::to_string(evaluation.value()) + ": " + what);
  };
  if (insight.size.empty()) return invalid("size: expected the size case's name");
  if (insight.source.empty()) return invalid("source: expected \"roofline\" or \"ncu\"");
  if (!insight.document.is_object()) return invalid("document: expected a JSON object");
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto exists = connection_->require_row("evaluations", "evaluation", evaluation.value());
  if (!exists) return std::move(exists).error();
  auto insert = connection_->prepare(
      "INSERT INTO insights (evaluation_id, candidate_id, size, source, bottleneck, summary, document) "
      "SELECT e.id, e.candidate_id, ?2, ?3, ?4, ?5, ?6 FROM evaluations e WHERE e.id = ?1 "
      "ON CONFLICT (evaluation_id, source, size) DO UPDATE SET bottleneck = excluded.bottleneck, "
      "summary = excluded.summary, document = excluded.document, "
      "created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') RETURNING id");
  if (!insert) return std::move(insert).error();
  insert->bind_int(1, evaluation.value());
  insert->bind_text(2, insight.size);
  insert->bind_text(3, insight.source);
  insert->bind_text(4, insight.bottleneck);
  insert->bind_text(5, insight.summary);
  insert->bind_text(6, store_detail::to_json_text(insight.document));
  auto row = insert->step();
  if (!row) return std::move(row).error();
  if (!*row) return connection_->error("INSERT INTO insights returned no id");
  InsightId const id(insert->int_column(0));
  auto done = insert->run();
  if (!done) return std::move(done).error();
  auto committed = transaction->commit();
  if (!committed) return std::move(committed).error();
  return id;
}

Result<std::vector<StoredInsight>> Store::insights_for_evaluation(EvaluationId evaluation) {
  std::lock_guard lock(connection_->mutex);
  auto exists = connection_->require_row("evaluations", "evaluation", evaluation.value());
  if (!exists) return std::move(exists).error();
  auto select = connection_->prepare("SELECT " + std::string(store_detail::kInsightColumns) +
                                     " FROM insights i WHERE i.evaluation_id = ?1 ORDER BY i.id");
  if (!select) return std::move(select).error();
  select->bind_int(1, evaluation.value());
  return read_all(*select);
}

Result<std::vector<StoredInsight>> Store::insights_for_candidate(CandidateId candidate) {
  std::lock_guard lock(connection_->mutex);
  auto exists = connection_->require_row("candidates", "candidate", candidate.value());
  if (!exists) return std::move(exists).error();
  auto select = connection_->prepare("SELECT " + std::string(store_detail::kInsightColumns) +
                                     " FROM insights i WHERE i.candidate_id = ?1 ORDER BY i.id");
  if (!select) return std::move(select).error();
  select->bind_int(1, candidate.value());
  return read_all(*select);
}

Result<std::vector<StoredInsight>> Store::insights_for_run(RunId run) {
  std::lock_guard lock(connection_->mutex);
  auto exists = connection_->require_row("runs", "run", run.value());
  if (!exists) return std::move(exists).error();
  auto select = connection_->prepare("SELECT " + std::string(store_detail::kInsightColumns) +
                                     " FROM insights i JOIN candidates c ON c.id = i.candidate_id"
                                     " WHERE c.run_id = ?1 ORDER BY i.id");
  if (!select) return std::move(select).error();
  select->bind_int(1, run.value());
  return read_all(*select);
}

}  // namespace kopt
