#include <cmath>
#include <string>
#include <utility>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/transaction.hpp"

namespace kopt {

using store_detail::Transaction;

namespace {

bool valid_outcome(std::string_view task_family, std::string_view action, double log_gain) {
  return !task_family.empty() && !action.empty() && std::isfinite(log_gain);
}

// One outcome into the running means, inside the caller's transaction.
Status upsert_outcome(Store::Connection& connection, std::string_view task_family, std::string_view action,
                      bool improved, double log_gain) {
  // In the UPDATE every column reference is the old value, so the running mean uses the old tries.
  auto upsert = connection.prepare(
      "INSERT INTO search_memory (task_family, action, tries, improvements, mean_log_gain) "
      "VALUES (?1, ?2, 1, ?3, ?4) ON CONFLICT (task_family, action) DO UPDATE SET "
      "tries = tries + 1, improvements = improvements + excluded.improvements, "
      "mean_log_gain = mean_log_gain + (excluded.mean_log_gain - mean_log_gain) / (tries + 1), "
      "updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')");
  if (!upsert) return std::move(upsert).error();
  upsert->bind_text(1, task_family);
  upsert->bind_text(2, action);
  upsert->bind_int(3, improved ? 1 : 0);
  upsert->bind_double(4, log_gain);
  return upsert->run();
}

}  // namespace

Status Store::record_action_outcome(std::string_view task_family, std::string_view action, bool improved,
                                    double log_gain) {
  if (!valid_outcome(task_family, action, log_gain)) {
    return make_error(
        ErrorCode::invalid_argument,
        "store " + connection_->path.string() +
            ": record_action_outcome needs a task family, an action name and a finite log gain");
  }
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  if (auto done = upsert_outcome(*connection_, task_family, action, improved, log_gain); !done) return done;
  return transaction->commit();
}

Status Store::record_search_memory(RunId run, std::string_view task_family,
                                   std::vector<ActionOutcome> const& outcomes) {
  for (ActionOutcome const& outcome : outcomes) {
    if (!valid_outcome(task_family, outcome.action, outcome.log_gain)) {
      return make_error(ErrorCode::invalid_argument,
                        "store " + connection_->path.string() + ": record_search_memory: action '" +
                            outcome.action + "' of task family '" + std::string(task_family) +
                            "' needs a family, an action name and a finite log gain");
    }
  }
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto claim =
      connection_->prepare("UPDATE runs SET memory_recorded = 1 WHERE id = ?1 AND memory_recorded = 0");
  if (!claim) return std::move(claim).error();
  claim->bind_int(1, run.value());
  if (auto done = claim->run(); !done) return done;
  if (sqlite3_changes(connection_->db.get()) == 0) {  // recorded before, or no such run
    if (auto exists = connection_->require_row("runs", "run", run.value()); !exists) return exists;
    return transaction->commit();
  }
  for (ActionOutcome const& outcome : outcomes) {
    if (auto done = upsert_outcome(*connection_, task_family, outcome.action, outcome.log_gain > 0.0,
                                   outcome.log_gain);
        !done)
      return done;
  }
  return transaction->commit();
}

Result<std::vector<ActionRecord>> Store::search_memory(std::string_view task_family) {
  std::lock_guard lock(connection_->mutex);
  auto select = connection_->prepare(
      "SELECT task_family, action, tries, improvements, mean_log_gain FROM search_memory "
      "WHERE task_family = ?1 ORDER BY action");
  if (!select) return std::move(select).error();
  select->bind_text(1, task_family);
  std::vector<ActionRecord> memory;
  while (true) {
    auto row = select->step();
    if (!row) return std::move(row).error();
    if (!*row) break;
    memory.push_back(ActionRecord{select->text_column(0), select->text_column(1), select->int_column(2),
                                  select->int_column(3), select->double_column(4)});
  }
  return memory;
}

}  // namespace kopt
