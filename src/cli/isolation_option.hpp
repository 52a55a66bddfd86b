// --require-isolation, on the commands that run candidates (eval, optimize, bench, generate) and on
// doctor: a containment measure the GPU worker cannot take (docs/security.md) becomes an error, exit
// code 3 (environment), instead of a line in the report's `isolation` field.
#pragma once

namespace CLI {
class App;
}

namespace kopt::cli {

void add_require_isolation_flag(CLI::App& command, bool& flag);

// With `flag` set, every worker this process starts refuses to start without full isolation: the
// setting worker.require_isolation (KOPT_WORKER_REQUIRE_ISOLATION=1, which reaches the worker through
// its environment allow-list). Call after the configuration files are applied (they may set it too).
void apply_require_isolation(bool flag);

}  // namespace kopt::cli
