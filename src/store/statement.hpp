// A prepared SQLite statement: typed binds (1-based), stepping, typed column reads (0-based).
// Bind failures are remembered and reported by the next step().
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "kopt/result.hpp"

namespace kopt::store_detail {

class Statement {
 public:
  Statement(sqlite3* db, std::filesystem::path path, sqlite3_stmt* statement) noexcept;
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(Statement const&) = delete;
  Statement& operator=(Statement const&) = delete;
  ~Statement();

  void bind_int(int index, std::int64_t value);
  void bind_double(int index, double value);
  void bind_optional_double(int index, std::optional<double> value);
  void bind_optional_int(int index, std::optional<std::int64_t> value);
  void bind_text(int index, std::string_view value);

  // True when a row is available, false when the statement is done.
  Result<bool> step();
  // Steps to completion, for statements that return no rows.
  Status run();

  bool is_null(int column) const;
  std::int64_t int_column(int column) const;
  double double_column(int column) const;
  std::string text_column(int column) const;
  std::optional<std::string> optional_text_column(int column) const;
  std::optional<double> optional_double_column(int column) const;
  std::optional<std::int64_t> optional_int_column(int column) const;

  // An error naming the database file, for rows that do not decode.
  Error row_error(std::string_view what) const;

 private:
  void note_bind(int rc);

  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
  sqlite3_stmt* statement_ = nullptr;
  int bind_error_ = SQLITE_OK;
};

}  // namespace kopt::store_detail
