// Where the strategy library is: an explicit folder, $KOPT_STRATEGIES, or a strategies/ folder next to or
// above the running executable (a build tree, an install prefix's share/kopt) or in the working directory.
#include <cstdlib>

#include "kopt/propose.hpp"

namespace kopt {
namespace {

namespace fs = std::filesystem;

bool is_library(fs::path const& dir) {
  std::error_code ec;
  return fs::exists(dir / "common" / "strategy.cuh", ec);
}

}  // namespace

Result<fs::path> find_strategy_library(std::optional<fs::path> const& explicit_root) {
  if (explicit_root) {
    if (is_library(*explicit_root)) return fs::absolute(*explicit_root);
    return make_error(ErrorCode::not_found,
                      explicit_root->string() + ": not a strategy library (no common/strategy.cuh in it)");
  }
  if (char const* env = std::getenv("KOPT_STRATEGIES"); env != nullptr && *env != '\0') {
    if (is_library(env)) return fs::absolute(env);
    return make_error(ErrorCode::not_found, std::string("KOPT_STRATEGIES=") + env +
                                                ": not a strategy library (no common/strategy.cuh in it)");
  }
  std::vector<fs::path> tried;
  std::error_code ec;
  auto const exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto dir = exe.parent_path();
    for (int level = 0; level <= 3 && !dir.empty(); ++level, dir = dir.parent_path()) {
      for (auto const& candidate : {dir / "strategies", dir / "share" / "kopt" / "strategies"}) {
        if (is_library(candidate)) return candidate;
        tried.push_back(candidate);
      }
      if (dir == dir.root_path()) break;
    }
  }
  auto const here = fs::current_path(ec) / "strategies";
  if (!ec && is_library(here)) return here;
  tried.push_back(here);
  std::string message = "the strategy library was not found; tried";
  for (auto const& t : tried) message += " " + t.string();
  message += "; pass --strategies DIR or set KOPT_STRATEGIES";
  return make_error(ErrorCode::not_found, message);
}

}  // namespace kopt
