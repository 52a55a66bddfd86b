// Verified bindings (schema version 8): a library strategy's contract bound to a task, verified on the GPU
// once and reused (docs/strategies.md, "Binding").
#include <string>
#include <utility>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/records.hpp"
#include "store/transaction.hpp"

namespace kopt {

using store_detail::Transaction;

Status Store::record_verified_binding(VerifiedBinding const& binding) {
  if (binding.task_key.empty() || binding.strategy.empty() || binding.binding.empty() ||
      !binding.roles.is_object()) {
    return make_error(ErrorCode::invalid_argument,
                      "store " + connection_->path.string() +
                          ": record_verified_binding needs a task key, a strategy, a binding and its roles "
                          "as a JSON object");
  }
  std::lock_guard lock(connection_->mutex);
  auto transaction = Transaction::begin(*connection_);
  if (!transaction) return std::move(transaction).error();
  auto upsert = connection_->prepare(
      "INSERT INTO verified_bindings (task_key, strategy, contract, binding, roles, task_dir) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (task_key, strategy, contract) DO UPDATE SET "
      "binding = excluded.binding, roles = excluded.roles, task_dir = excluded.task_dir, "
      "verified_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')");
  if (!upsert) return std::move(upsert).error();
  upsert->bind_text(1, binding.task_key);
  upsert->bind_text(2, binding.strategy);
  upsert->bind_text(3, binding.contract);
  upsert->bind_text(4, binding.binding);
  upsert->bind_text(5, store_detail::to_json_text(binding.roles));
  upsert->bind_text(6, binding.task_dir);
  if (auto done = upsert->run(); !done) return done;
  return transaction->commit();
}

Result<std::vector<VerifiedBinding>> Store::verified_bindings(std::string_view task_key) {
  std::lock_guard lock(connection_->mutex);
  auto select = connection_->prepare(
      "SELECT task_key, strategy, contract, binding, roles, task_dir, verified_at FROM verified_bindings "
      "WHERE task_key = ?1 ORDER BY verified_at DESC, strategy");
  if (!select) return std::move(select).error();
  select->bind_text(1, task_key);
  std::vector<VerifiedBinding> found;
  while (true) {
    auto row = select->step();
    if (!row) return std::move(row).error();
    if (!*row) break;
    VerifiedBinding binding;
    binding.task_key = select->text_column(0);
    binding.strategy = select->text_column(1);
    binding.contract = select->text_column(2);
    binding.binding = select->text_column(3);
    binding.roles = nlohmann::json::parse(select->text_column(4), nullptr, false);
    if (!binding.roles.is_object()) {
      return connection_->error("verified_bindings row of strategy '" + binding.strategy +
                                "': roles is not a JSON object");
    }
    binding.task_dir = select->text_column(5);
    binding.verified_at = select->text_column(6);
    found.push_back(std::move(binding));
  }
  return found;
}

}  // namespace kopt
