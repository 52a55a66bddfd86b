// kopt-compile: compiles kernel-mode candidates for kopt's compile pool, one JSON request per line on
// stdin, one JSON reply per line on stdout (docs/compile.md, "The compile pool"). Started by kopt.
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "compile/backends.hpp"
#include "compile/compile_server.hpp"

int main(int argc, char** argv) {
  if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::cout
        << "kopt-compile: kopt's kernel-mode compile server (NVRTC). Started by kopt; reads one JSON\n"
           "request per line on stdin and writes one JSON reply per line on stdout until end of input.\n";
    return 0;
  }
  // kopt's own cache replaces the driver's compute cache, which would hide ptxas' resource report
  // (see disable_driver_compile_cache in compiler.cpp). Set before the first NVRTC call.
  ::setenv("CUDA_CACHE_DISABLE", "1", 1);
  std::ios::sync_with_stdio(false);
  // kopt starts its servers with the compiler, so this runs while kopt builds the task's reference and
  // generates inputs, not in front of the first candidate.
  kopt::detail::warm_up_nvrtc();
  return kopt::detail::run_compile_server(std::cin, std::cout);
}
