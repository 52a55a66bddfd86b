#include <string>
#include <utility>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/records.hpp"
#include "store/transaction.hpp"

namespace kopt {

using store_detail::Transaction;

Result<CandidateId> Store::add_candidate(RunId run, Candidate const& candidate) {
  if (candidate.key.value().empty()) {
    return make_error(ErrorCode::invalid_argument, "store " + connection_->path.string() +
                                                       ": add_candidate needs a non-empty content key");
  }
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto run_exists = connection_->require_row("runs", "run", run.value());
  if (!run_exists) return std::move(run_exists).error();
  if (candidate.parent) {
    auto parent_exists =
        connection_->require_row("candidates", "parent candidate", candidate.parent->value());
    if (!parent_exists) return std::move(parent_exists).error();
  }
  auto insert = connection_->prepare(
      "INSERT INTO candidates (run_id, content_key, source, knobs, flags, parent_id, action, mode) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (run_id, content_key) DO NOTHING RETURNING id");
  if (!insert) return std::move(insert).error();
  insert->bind_int(1, run.value());
  insert->bind_text(2, candidate.key.value());
  insert->bind_text(3, candidate.source);
  insert->bind_text(4, store_detail::to_json_text(candidate.knobs));
  insert->bind_text(5, store_detail::to_json_text(candidate.flags));
  insert->bind_optional_int(6, candidate.parent ? std::optional(candidate.parent->value()) : std::nullopt);
  insert->bind_text(7, candidate.action);
  insert->bind_text(8, candidate.mode);
  auto row = insert->step();
  if (!row) return std::move(row).error();
  std::optional<CandidateId> id;
  if (*row) {
    id = CandidateId(insert->int_column(0));
    auto done = insert->run();
    if (!done) return std::move(done).error();
  } else {  // the run already has this candidate
    auto select = connection_->prepare("SELECT id FROM candidates WHERE run_id = ?1 AND content_key = ?2");
    if (!select) return std::move(select).error();
    select->bind_int(1, run.value());
    select->bind_text(2, candidate.key.value());
    auto existing = select->step();
    if (!existing) return std::move(existing).error();
    if (!*existing) return connection_->error("candidate insert conflicted but no existing row was found");
    id = CandidateId(select->int_column(0));
  }
  auto committed = transaction->commit();
  if (!committed) return std::move(committed).error();
  return *id;
}

Result<std::optional<StoredCandidate>> Store::find_candidate(RunId run, CandidateKey const& key) {
  std::lock_guard lock(connection_->mutex);
  auto select = connection_->prepare("SELECT " + std::string(store_detail::kCandidateColumns) +
                                     " FROM candidates c WHERE c.run_id = ?1 AND c.content_key = ?2");
  if (!select) return std::move(select).error();
  select->bind_int(1, run.value());
  select->bind_text(2, key.value());
  auto row = select->step();
  if (!row) return std::move(row).error();
  if (!*row) return std::optional<StoredCandidate>();
  auto candidate = store_detail::read_candidate(*select);
  if (!candidate) return std::move(candidate).error();
  return std::optional(std::move(*candidate));
}

}  // namespace kopt
