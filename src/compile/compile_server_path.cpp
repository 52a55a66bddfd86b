// find_compile_server: where the kopt-compile executable is, or why compiles stay on threads.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "kopt/compile.hpp"
#include "kopt/toolchain.hpp"

namespace kopt {
namespace {

std::string env_or_empty(char const* name) {
  char const* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

// Once per process: the first reason is the one that matters (the next lookups find the same).
void note_threads_once(std::string const& reason, bool always) {
  static std::once_flag once;
  if (!always && env_or_empty("KOPT_DEBUG").empty()) return;
  std::call_once(once,
                 [&] { std::fprintf(stderr, "kopt: note: %s; compiling on threads\n", reason.c_str()); });
}

}  // namespace

std::filesystem::path find_compile_server() {
  std::string const configured = env_or_empty("KOPT_COMPILE_SERVER");
  if (configured == "off" || configured == "0") return {};
  if (!configured.empty() && configured != "on") {
    if (auto const server = find_program(configured)) return *server;
    note_threads_once(fmt::format("KOPT_COMPILE_SERVER={} is not an executable file", configured),
                      /*always=*/true);
    return {};
  }
  std::filesystem::path const beside = executable_dir() / "kopt-compile";
  if (auto const server = find_program(beside.string())) return *server;
  note_threads_once(fmt::format("no kopt-compile next to this program ({})", beside.string()),
                    /*always=*/configured == "on");
  return {};
}

}  // namespace kopt
