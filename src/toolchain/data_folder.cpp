// find_data_folder: where the strategy library and the prompt templates are.
#include <cstdlib>
#include <system_error>
#include <vector>

#include "kopt/toolchain.hpp"

namespace kopt {

Result<std::filesystem::path> find_data_folder(DataFolder const& folder,
                                               std::optional<std::filesystem::path> const& explicit_dir) {
  namespace fs = std::filesystem;
  auto const holds_marker = [&](fs::path const& dir) {
    std::error_code ec;
    return fs::exists(dir / folder.marker, ec);
  };
  std::string const not_one = ": not " + folder.what + " (no " + folder.marker + " in it)";
  if (explicit_dir) {
    if (holds_marker(*explicit_dir)) return fs::absolute(*explicit_dir);
    return make_error(ErrorCode::not_found, explicit_dir->string() + not_one);
  }
  if (char const* env = std::getenv(folder.env_var.c_str()); env != nullptr && *env != '\0') {
    if (holds_marker(env)) return fs::absolute(env);
    return make_error(ErrorCode::not_found, folder.env_var + "=" + env + not_one);
  }
  std::vector<fs::path> tried;
  std::error_code ec;
  auto const exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto dir = exe.parent_path();
    for (int level = 0; level <= 3 && !dir.empty(); ++level, dir = dir.parent_path()) {
      for (auto const& candidate : {dir / folder.name, dir / "share" / "kopt" / folder.name}) {
        if (holds_marker(candidate)) return candidate;
        tried.push_back(candidate);
      }
      if (dir == dir.root_path()) break;
    }
  }
  auto const here = fs::current_path(ec) / folder.name;
  if (!ec && holds_marker(here)) return here;
  tried.push_back(here);
  std::string message = folder.not_found + "; tried";
  for (auto const& t : tried) message += " " + t.string();
  message += "; " + folder.hint;
  return make_error(ErrorCode::not_found, message);
}

}  // namespace kopt
