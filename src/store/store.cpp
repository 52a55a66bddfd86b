#include "kopt/store.hpp"

#include <memory>
#include <string>
#include <utility>

#include "store/connection.hpp"
#include "store/migrations.hpp"

namespace kopt {

int store_schema_version() noexcept {
  return static_cast<int>(store_detail::store_migrations().size());
}

std::filesystem::path default_store_path() {
  return std::filesystem::current_path() / ".kopt" / "kopt.db";
}

namespace {

// A reader never migrates the file. A store of an older schema is copied into memory (SQLite's backup API,
// one consistent snapshot) and migrated there: the reader sees the current schema, the file stays as it is
// until a writer opens it (docs/store.md, "Opening a store").
Status migrate_a_copy_in_memory(Store::Connection& connection) {
  sqlite3* raw = nullptr;
  int const rc = sqlite3_open_v2(":memory:", &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  std::unique_ptr<sqlite3, SqliteCloser> memory(raw);
  if (rc != SQLITE_OK) return connection.error("cannot open an in-memory copy to read an older schema");
  sqlite3_backup* backup = sqlite3_backup_init(memory.get(), "main", connection.db.get(), "main");
  if (backup == nullptr) return connection.error("cannot copy the store into memory to read an older schema");
  int const stepped = sqlite3_backup_step(backup, -1);
  sqlite3_backup_finish(backup);
  if (stepped != SQLITE_DONE)
    return connection.error("cannot copy the store into memory to read an older schema");
  connection.db = std::move(memory);
  sqlite3_extended_result_codes(connection.db.get(), 1);
  if (auto status = connection.exec("PRAGMA foreign_keys = ON"); !status) return status;
  return store_detail::apply_migrations(connection, store_detail::store_migrations());
}

}  // namespace

Result<Store> Store::open(std::filesystem::path const& path, StoreAccess access) {
  auto connection = store_detail::open_connection(path, access);
  if (!connection) return std::move(connection).error();
  if (access == StoreAccess::read_only) {
    auto version = store_detail::read_user_version(**connection);
    if (!version) return std::move(version).error();
    // An older schema is read through a migrated copy; for the current one apply_migrations has nothing to
    // do, and a newer one it refuses before writing anything.
    if (*version < store_schema_version()) {
      auto copied = migrate_a_copy_in_memory(**connection);
      if (!copied) return std::move(copied).error();
      return Store(std::move(*connection));
    }
  }
  auto migrated = store_detail::apply_migrations(**connection, store_detail::store_migrations());
  if (!migrated) return std::move(migrated).error();
  return Store(std::move(*connection));
}

Store::Store(std::unique_ptr<Connection> connection) : connection_(std::move(connection)) {}
Store::Store(Store&&) noexcept = default;
Store& Store::operator=(Store&&) noexcept = default;
Store::~Store() = default;

std::filesystem::path const& Store::path() const noexcept {
  return connection_->path;
}

Status Store::check_integrity() {
  std::lock_guard lock(connection_->mutex);
  auto statement = connection_->prepare("PRAGMA integrity_check");
  if (!statement) return std::move(statement).error();
  std::string problems;
  int lines = 0;
  while (true) {
    auto row = statement->step();
    if (!row) return std::move(row).error();
    if (!*row) break;
    std::string line = statement->text_column(0);
    if (line == "ok") continue;
    if (++lines <= 10) problems += "\n  " + line;
  }
  if (lines == 0) return Ok{};
  return make_error(ErrorCode::io_error, "store " + connection_->path.string() + ": integrity check found " +
                                             std::to_string(lines) + " problem(s):" + problems);
}

}  // namespace kopt
