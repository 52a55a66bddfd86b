// kopt-compile: compiles kernel-mode candidates for kopt's compile pool, one JSON request per line on
// stdin, one JSON reply per line on stdout (docs/compile.md, "The compile pool"). Started by kopt.
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string_view>

#include "compile/backends.hpp"
#include "compile/compile_server.hpp"

namespace {

// How far below kopt and its GPU worker the compile servers run (docs/compile.md, "CPU priority"):
// KOPT_COMPILE_NICE, 0-19, default 10. A bad value is named on stderr and the default is used.
constexpr int kDefaultNiceIncrement = 10;

int nice_increment() {
  char const* text = std::getenv("KOPT_COMPILE_NICE");
  if (text == nullptr || *text == '\0') return kDefaultNiceIncrement;
  std::string_view const value(text);
  int increment = -1;
  auto const [end, error] = std::from_chars(value.data(), value.data() + value.size(), increment);
  if (error != std::errc{} || end != value.data() + value.size() || increment < 0 || increment > 19) {
    std::cerr << "kopt-compile: KOPT_COMPILE_NICE='" << value << "': expected an integer from 0 to 19; using "
              << kDefaultNiceIncrement << "\n";
    return kDefaultNiceIncrement;
  }
  return increment;
}

// The worker and kopt are the pipeline's serial stage: when they have work, a compile must give them
// the core, and compiles take every cycle left. Lowering priority needs no privilege.
void lower_priority() {
  int const increment = nice_increment();
  if (increment == 0) return;
  errno = 0;
  int const current = ::getpriority(PRIO_PROCESS, 0);
  if (current == -1 && errno != 0) return;
  (void)::setpriority(PRIO_PROCESS, 0, std::min(19, current + increment));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::cout
        << "kopt-compile: kopt's kernel-mode compile server (NVRTC). Started by kopt; reads one JSON\n"
           "request per line on stdin and writes one JSON reply per line on stdout until end of input.\n";
    return 0;
  }
  // kopt's own cache replaces the driver's compute cache, which would hide ptxas' resource report
  // (see disable_driver_compile_cache in compiler.cpp). Set before the first NVRTC call.
  ::setenv("CUDA_CACHE_DISABLE", "1", 1);  // NOLINT(concurrency-mt-unsafe): no thread started yet
  lower_priority();
  std::ios::sync_with_stdio(false);
  // kopt starts its servers with the compiler, so this runs while kopt builds the task's reference and
  // generates inputs, not in front of the first candidate.
  kopt::detail::warm_up_nvrtc();
  return kopt::detail::run_compile_server(std::cin, std::cout);
}
