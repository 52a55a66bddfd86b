// The schema as an ordered list of migrations. Migration i (0-based) takes a database from
// user_version i to i + 1; each runs in its own transaction together with the version bump, so an
// interrupted upgrade leaves the previous version intact.
#pragma once

#include <span>
#include <string_view>

#include "kopt/result.hpp"
#include "kopt/store.hpp"

namespace kopt::store_detail {

// 'kopt' in ASCII; set by the first migration, checked at open.
inline constexpr int kApplicationId = 0x6B6F7074;

struct Migration {
  std::string_view description;
  std::string_view sql;
};

std::span<Migration const> store_migrations();

// Brings the database up to migrations.size(). A database whose user_version is higher than that is
// an error naming the file and both versions.
Status apply_migrations(Store::Connection& connection, std::span<Migration const> migrations);

Result<int> read_user_version(Store::Connection& connection);

}  // namespace kopt::store_detail
