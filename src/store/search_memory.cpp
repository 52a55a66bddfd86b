#include <cmath>
#include <string>
#include <utility>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/transaction.hpp"

namespace kopt {

using store_detail::Transaction;

Status Store::record_action_outcome(std::string_view task_family, std::string_view action, bool improved,
                                    double log_gain) {
  if (task_family.empty() || action.empty() || !std::isfinite(log_gain)) {
    return make_error(
        ErrorCode::invalid_argument,
        "store " + connection_->path.string() +
            ": record_action_outcome needs a task family, an action name and a finite log gain");
  }
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  // In the UPDATE every column reference is the old value, so the running mean uses the old tries.
  auto upsert = connection_->prepare(
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
  auto done = upsert->run();
  if (!done) return done;
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
