// The SQLite connection behind a Store: the handle, the file it names in errors, and the mutex that
// serializes calls made through one Store from several threads.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string_view>

#include "kopt/result.hpp"
#include "kopt/store.hpp"
#include "store/statement.hpp"

namespace kopt {

struct SqliteCloser {
  void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
};

struct Store::Connection {
  std::filesystem::path path;
  std::unique_ptr<sqlite3, SqliteCloser> db;
  std::mutex mutex;

  // "store <path>: <what>: <SQLite's message>".
  Error error(std::string_view what) const;
  Status exec(std::string_view sql);
  // Prepares one statement; errors name the file.
  Result<store_detail::Statement> prepare(std::string_view sql);
  // not_found "store <path>: no <what> <id>" unless `table` has a row with that id.
  Status require_row(std::string_view table, std::string_view what, std::int64_t id);
};

namespace store_detail {

// Opens the file as `access` says (creating it, and its folders, only when the access allows), checks that
// it is a SQLite database that kopt may use (application_id, user_version), and sets the connection up:
// foreign keys and busy timeout, and for writers the WAL journal and synchronous=NORMAL. Does not migrate.
Result<std::unique_ptr<Store::Connection>> open_connection(
    std::filesystem::path const& path, StoreAccess access = StoreAccess::read_write_create_folders);

}  // namespace store_detail

}  // namespace kopt
