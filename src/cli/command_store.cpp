#include "cli/command_store.hpp"

#include <fmt/format.h>

#include <system_error>

namespace kopt::cli {

std::filesystem::path command_store_path(std::string const& given) {
  if (given.empty()) return default_store_path();
  std::error_code ec;
  auto absolute = std::filesystem::absolute(std::filesystem::path(given), ec);
  return ec ? std::filesystem::path(given) : absolute.lexically_normal();
}

Result<Store> open_store_to_read(std::string const& given) {
  auto const path = command_store_path(given);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return make_error(ErrorCode::not_found,
                      fmt::format("no store at {}: nothing has been recorded here yet; run `kopt optimize` "
                                  "first or pass --store",
                                  path.string()));
  }
  return Store::open(path, StoreAccess::read_only);
}

Status check_store_to_write(std::string const& given) {
  if (given.empty()) return Ok{};
  auto const path = command_store_path(given);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("--store {}: is a folder, expected a database file", path.string()));
  }
  if (path.has_parent_path() && !std::filesystem::is_directory(path.parent_path(), ec)) {
    return make_error(
        ErrorCode::not_found,
        fmt::format("--store {}: the folder {} does not exist (create it first, or fix the path)",
                    path.string(), path.parent_path().string()));
  }
  return Ok{};
}

Result<Store> open_store_to_write(std::string const& given) {
  if (auto checked = check_store_to_write(given); !checked) return checked.error();
  return Store::open(command_store_path(given),
                     given.empty() ? StoreAccess::read_write_create_folders : StoreAccess::read_write);
}

}  // namespace kopt::cli
