#include "cli/isolation_option.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include <cstdlib>

namespace kopt::cli {

void add_require_isolation_flag(CLI::App& command, bool& flag) {
  command.add_flag("--require-isolation", flag,
                   "fail (exit 3) when the GPU worker cannot take every containment measure: network "
                   "namespace, Landlock, seccomp, ... (docs/security.md)");
}

void apply_require_isolation(bool flag) {
  // While the command line is parsed, before kopt starts a thread.
  if (flag) ::setenv("KOPT_WORKER_REQUIRE_ISOLATION", "1", 1);  // NOLINT(concurrency-mt-unsafe)
}

}  // namespace kopt::cli
