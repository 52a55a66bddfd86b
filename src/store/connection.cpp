#include "store/connection.hpp"

#include <string>

#include "store/migrations.hpp"

namespace kopt {

Error Store::Connection::error(std::string_view what) const {
  std::string message = "store " + path.string() + ": " + std::string(what);
  if (db) {
    message += ": ";
    message += sqlite3_errmsg(db.get());
  }
  return make_error(ErrorCode::io_error, std::move(message));
}

Status Store::Connection::exec(std::string_view sql) {
  std::string const text(sql);
  char* raw_message = nullptr;
  int const rc = sqlite3_exec(db.get(), text.c_str(), nullptr, nullptr, &raw_message);
  if (rc == SQLITE_OK) return Ok{};
  std::string const detail = raw_message != nullptr ? raw_message : sqlite3_errstr(rc);
  sqlite3_free(raw_message);
  return make_error(ErrorCode::io_error, "store " + path.string() + ": " + detail);
}

Result<store_detail::Statement> Store::Connection::prepare(std::string_view sql) {
  sqlite3_stmt* statement = nullptr;
  int const rc = sqlite3_prepare_v2(db.get(), sql.data(), static_cast<int>(sql.size()), &statement, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(statement);
    return error("cannot prepare a statement");
  }
  return store_detail::Statement(db.get(), path, statement);
}

}  // namespace kopt

namespace kopt {

Status Store::Connection::require_row(std::string_view table, std::string_view what, std::int64_t id) {
  auto statement = prepare("SELECT 1 FROM " + std::string(table) + " WHERE id = ?1");
  if (!statement) return std::move(statement).error();
  statement->bind_int(1, id);
  auto row = statement->step();
  if (!row) return std::move(row).error();
  if (!*row) {
    return make_error(ErrorCode::not_found,
                      "store " + path.string() + ": no " + std::string(what) + " " + std::to_string(id));
  }
  return Ok{};
}

namespace store_detail {
namespace {

constexpr int kBusyTimeoutMs = 10000;

Result<std::int64_t> pragma_int(Store::Connection& connection, std::string_view pragma) {
  auto statement = connection.prepare("PRAGMA " + std::string(pragma));
  if (!statement) return std::move(statement).error();
  auto row = statement->step();
  if (!row) return std::move(row).error();
  if (!*row) return connection.error("PRAGMA " + std::string(pragma) + " returned no row");
  return statement->int_column(0);
}

Result<std::string> pragma_text(Store::Connection& connection, std::string_view pragma) {
  auto statement = connection.prepare("PRAGMA " + std::string(pragma));
  if (!statement) return std::move(statement).error();
  auto row = statement->step();
  if (!row) return std::move(row).error();
  if (!*row) return connection.error("PRAGMA " + std::string(pragma) + " returned no row");
  return statement->text_column(0);
}

// Where the file may be created: a writer's folder must exist unless the access creates folders; a reader
// creates nothing, so its file must exist.
Status check_location(std::filesystem::path const& path, StoreAccess access) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return make_error(ErrorCode::io_error,
                      "store " + path.string() + ": is a directory, expected a database file");
  }
  switch (access) {
    case StoreAccess::read_only:
      if (!std::filesystem::exists(path, ec)) {
        return make_error(ErrorCode::not_found, "no store at " + path.string() + ": the file does not exist");
      }
      return Ok{};
    case StoreAccess::read_write:
      if (path.has_parent_path() && !std::filesystem::is_directory(path.parent_path(), ec)) {
        return make_error(ErrorCode::not_found, "store " + path.string() + ": the folder " +
                                                    path.parent_path().string() +
                                                    " does not exist (create it first, or fix the path)");
      }
      return Ok{};
    case StoreAccess::read_write_create_folders:
      if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), ec);
        if (ec) {
          return make_error(ErrorCode::io_error, "store " + path.string() + ": cannot create directory " +
                                                     path.parent_path().string() + ": " + ec.message());
        }
      }
      return Ok{};
  }
  return Ok{};
}

}  // namespace

Result<std::unique_ptr<Store::Connection>> open_connection(std::filesystem::path const& path,
                                                           StoreAccess access) {
  if (path.empty()) return make_error(ErrorCode::invalid_argument, "store: the database path is empty");
  if (auto located = check_location(path, access); !located) return std::move(located).error();
  auto connection = std::make_unique<Store::Connection>();
  connection->path = path;
  bool const read_only = access == StoreAccess::read_only;
  sqlite3* raw = nullptr;
  int const flags = read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  int const rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  connection->db.reset(raw);
  if (rc != SQLITE_OK) return connection->error("cannot open the database");
  sqlite3_extended_result_codes(raw, 1);
  sqlite3_busy_timeout(raw, kBusyTimeoutMs);

  // The first read of the file: fails with "file is not a database" for anything that is not SQLite.
  auto application_id = pragma_int(*connection, "application_id");
  if (!application_id) {
    return make_error(ErrorCode::io_error,
                      application_id.error().message + " (expected a kopt store, an SQLite database)");
  }
  auto user_version = pragma_int(*connection, "user_version");
  if (!user_version) return std::move(user_version).error();
  if (*application_id != 0 && *application_id != kApplicationId) {
    return make_error(ErrorCode::io_error, "store " + path.string() +
                                               ": not a kopt store (SQLite application_id " +
                                               std::to_string(*application_id) + ", expected " +
                                               std::to_string(kApplicationId) + ")");
  }
  if (*application_id == 0 && *user_version != 0) {
    return make_error(ErrorCode::io_error,
                      "store " + path.string() + ": not a kopt store (SQLite database with user_version " +
                          std::to_string(*user_version) + " but no kopt application_id)");
  }

  if (read_only) {
    // A reader changes nothing: the journal mode is the writer's business (WAL readers see its writes).
    auto status = connection->exec("PRAGMA foreign_keys = ON");
    if (!status) return std::move(status).error();
    return connection;
  }
  auto mode = pragma_text(*connection, "journal_mode = WAL");
  if (!mode) return std::move(mode).error();
  if (*mode != "wal") {
    return make_error(
        ErrorCode::io_error,
        "store " + path.string() + ": cannot use the WAL journal (journal_mode is '" + *mode + "')");
  }
  for (std::string_view pragma : {"PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON"}) {
    auto status = connection->exec(pragma);
    if (!status) return std::move(status).error();
  }
  return connection;
}

}  // namespace store_detail
}  // namespace kopt
