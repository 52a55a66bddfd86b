// Locating programs on PATH, the CUDA toolkit, and the running executable.
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>

#include "kopt/toolchain.hpp"
#include "toolchain/executable_file.hpp"

namespace kopt {

bool is_executable_file(std::filesystem::path const& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && access(path.c_str(), X_OK) == 0;
}

namespace {

std::string env_or_empty(char const* name) {
  char const* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

bool looks_like_cuda_home(std::filesystem::path const& dir) {
  std::error_code ec;
  return std::filesystem::is_directory(dir / "include", ec) || is_executable_file(dir / "bin" / "nvcc");
}

}  // namespace

std::optional<std::filesystem::path> find_program(std::string const& name) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (is_executable_file(name)) return std::filesystem::path(name);
    return std::nullopt;
  }
  std::string const path_var = env_or_empty("PATH");
  std::string_view rest = path_var;
  while (true) {
    std::size_t const colon = rest.find(':');
    std::string_view const dir = rest.substr(0, colon);
    // An empty PATH entry means the current directory.
    std::filesystem::path const candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
    if (is_executable_file(candidate)) return candidate;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return std::nullopt;
}

std::filesystem::path find_cuda_home() {
  for (char const* var : {"CUDA_HOME", "CUDA_PATH"}) {
    std::string const value = env_or_empty(var);
    if (!value.empty() && looks_like_cuda_home(value)) return std::filesystem::path(value);
  }
  if (auto nvcc = find_program("nvcc")) {
    std::error_code ec;
    std::filesystem::path resolved = std::filesystem::canonical(*nvcc, ec);
    if (ec) resolved = *nvcc;
    // <home>/bin/nvcc -> <home>. Prefer the unresolved path (keeps /usr/local/cuda, not cuda-13.0).
    for (auto const& path : {*nvcc, resolved}) {
      std::filesystem::path home = path.parent_path().parent_path();
      if (looks_like_cuda_home(home)) return home;
    }
  }
  return "/usr/local/cuda";
}

std::filesystem::path executable_dir() {
  std::error_code ec;
  std::filesystem::path const exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return std::filesystem::current_path(ec);
  return exe.parent_path();
}

}  // namespace kopt
