#include "store/statement.hpp"

#include <utility>

namespace kopt::store_detail {

Statement::Statement(sqlite3* db, std::filesystem::path path, sqlite3_stmt* statement) noexcept
    : db_(db), path_(std::move(path)), statement_(statement) {}

Statement::Statement(Statement&& other) noexcept
    : db_(other.db_),
      path_(std::move(other.path_)),
      statement_(std::exchange(other.statement_, nullptr)),
      bind_error_(other.bind_error_) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(statement_);
    db_ = other.db_;
    path_ = std::move(other.path_);
    statement_ = std::exchange(other.statement_, nullptr);
    bind_error_ = other.bind_error_;
  }
  return *this;
}

Statement::~Statement() {
  sqlite3_finalize(statement_);
}

void Statement::note_bind(int rc) {
  if (rc != SQLITE_OK && bind_error_ == SQLITE_OK) bind_error_ = rc;
}

void Statement::bind_int(int index, std::int64_t value) {
  note_bind(sqlite3_bind_int64(statement_, index, value));
}

void Statement::bind_double(int index, double value) {
  note_bind(sqlite3_bind_double(statement_, index, value));
}

void Statement::bind_optional_double(int index, std::optional<double> value) {
  if (value) {
    bind_double(index, *value);
  } else {
    note_bind(sqlite3_bind_null(statement_, index));
  }
}

void Statement::bind_optional_int(int index, std::optional<std::int64_t> value) {
  if (value) {
    bind_int(index, *value);
  } else {
    note_bind(sqlite3_bind_null(statement_, index));
  }
}

void Statement::bind_text(int index, std::string_view value) {
  note_bind(
      sqlite3_bind_text64(statement_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
}

Result<bool> Statement::step() {
  if (bind_error_ != SQLITE_OK) {
    return make_error(
        ErrorCode::internal_error,
        "store " + path_.string() + ": cannot bind a statement parameter: " + sqlite3_errstr(bind_error_));
  }
  int const rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return make_error(ErrorCode::io_error, "store " + path_.string() + ": " + sqlite3_errmsg(db_));
}

Status Statement::run() {
  while (true) {
    auto row = step();
    if (!row) return std::move(row).error();
    if (!*row) return Ok{};
  }
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

std::int64_t Statement::int_column(int column) const {
  return sqlite3_column_int64(statement_, column);
}

double Statement::double_column(int column) const {
  return sqlite3_column_double(statement_, column);
}

std::string Statement::text_column(int column) const {
  auto const* text = sqlite3_column_text(statement_, column);
  if (text == nullptr) return {};
  auto const size = static_cast<std::size_t>(sqlite3_column_bytes(statement_, column));
  return {reinterpret_cast<char const*>(text), size};
}

std::optional<std::string> Statement::optional_text_column(int column) const {
  if (is_null(column)) return std::nullopt;
  return text_column(column);
}

std::optional<double> Statement::optional_double_column(int column) const {
  if (is_null(column)) return std::nullopt;
  return double_column(column);
}

std::optional<std::int64_t> Statement::optional_int_column(int column) const {
  if (is_null(column)) return std::nullopt;
  return int_column(column);
}

Error Statement::row_error(std::string_view what) const {
  return make_error(ErrorCode::io_error, "store " + path_.string() + ": " + std::string(what));
}

}  // namespace kopt::store_detail
