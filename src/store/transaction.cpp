#include "store/transaction.hpp"

#include <utility>

#include "store/connection.hpp"

namespace kopt::store_detail {

Result<Transaction> Transaction::begin(Store::Connection& connection) {
  auto status = connection.exec("BEGIN IMMEDIATE");
  if (!status) return std::move(status).error();
  return Transaction(connection);
}

Result<Transaction> Transaction::begin_read(Store::Connection& connection) {
  auto status = connection.exec("BEGIN");
  if (!status) return std::move(status).error();
  return Transaction(connection);
}

Transaction::Transaction(Transaction&& other) noexcept
    : connection_(other.connection_), open_(std::exchange(other.open_, false)) {}

Transaction::~Transaction() {
  if (open_) (void)connection_->exec("ROLLBACK");
}

Status Transaction::commit() {
  auto status = connection_->exec("COMMIT");
  if (status) open_ = false;
  return status;
}

}  // namespace kopt::store_detail
