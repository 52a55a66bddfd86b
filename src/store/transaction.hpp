// BEGIN IMMEDIATE ... COMMIT, rolled back on destruction unless committed. IMMEDIATE takes the write
// lock up front, so two writers wait for each other (busy timeout) instead of failing mid-transaction.
#pragma once

#include "kopt/result.hpp"
#include "kopt/store.hpp"

namespace kopt::store_detail {

class Transaction {
 public:
  static Result<Transaction> begin(Store::Connection& connection);
  // BEGIN (deferred): a consistent snapshot for several reads; never blocks writers under WAL.
  static Result<Transaction> begin_read(Store::Connection& connection);
  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  Transaction(Transaction const&) = delete;
  Transaction& operator=(Transaction const&) = delete;
  ~Transaction();

  Status commit();

 private:
  explicit Transaction(Store::Connection& connection) noexcept : connection_(&connection) {}
  Store::Connection* connection_;
  bool open_ = true;
};

}  // namespace kopt::store_detail
