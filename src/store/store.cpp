#include "kopt/store.hpp"

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

Result<Store> Store::open(std::filesystem::path const& path) {
  auto connection = store_detail::open_connection(path);
  if (!connection) return std::move(connection).error();
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
