// The command lines of `kopt optimize`, `kopt runs` and `kopt export` (registered in command_registry.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/evaluator_options.hpp"
#include "kopt/result.hpp"

namespace CLI {
class App;
}

namespace kopt::cli {

struct OptimizeArgs {
  std::string task_dir;
  std::string from;  // the candidate with `// kopt:knob` annotations; empty: the built-in proposer
  std::vector<std::string> use;  // built-in proposer: only these strategies
  std::string library;           // built-in proposer: --strategies DIR
  std::size_t budget = 100;
  double time_s = 0.0;  // 0: no limit
  std::string strategy = "mcts";
  std::string objective = "runtime";  // runtime, energy, composite
  std::uint64_t seed = 1;
  std::string store;  // empty: .kopt/kopt.db
  bool json = false;
  std::optional<std::int64_t> resume;
  std::vector<std::string> flags;
  std::string arch;
  EvaluatorChoice evaluator;  // --device / --gpus / --queue: where candidates are evaluated
  bool no_confirm = false;
  bool no_memory = false;
  bool no_size_dispatch = false;  // one kernel (or configuration) for every size case
  // --proposer llm|mixed: the source-level search with LLM edits (command_optimize_llm.cpp)
  std::string proposer = "builtin";  // a name from optimize_proposers() (proposer_registry.hpp)
  std::optional<double> max_cost_usd;
  std::optional<int> max_calls;
  int repairs = 2;
  std::size_t node_budget = 8;
  bool judge = false;
  std::string prompts;  // empty: find_prompts_dir's search
};

struct RunsArgs {
  std::string store;
  bool json = false;
};

struct ExportArgs {
  std::int64_t run = 0;      // 0: not given (then --session is)
  std::int64_t session = 0;  // --session: the best of a library session's runs
  std::string out;
  std::string store;
  bool even_if_slower = false;  // export the best candidate even when it is slower than the reference
  bool torch = false;           // --torch: write a PyTorch file (ModelNew, a custom op) instead of the .cu
  std::string torch_name;       // --name with --torch: the op's and the extension's name
};

struct CliArguments;
void define_optimize_command(CLI::App& app, CliArguments& args);
void define_runs_command(CLI::App& app, CliArguments& args);
void define_export_command(CLI::App& app, CliArguments& args);

// The options every search of `kopt optimize --from` takes from its command line (OptimizeOptions and
// SourceSearchOptions name them alike).
template <class SearchOptions>
void apply_search_args(OptimizeArgs const& args, SearchOptions& options) {
  options.max_evaluations = args.budget;
  options.max_wall_seconds = args.time_s;
  options.seed = args.seed;
  options.source_path = std::filesystem::absolute(args.from);
  options.flags = args.flags;
  options.confirm = !args.no_confirm;
  options.search_memory = !args.no_memory;
}

// A new run needs <task-dir>; --resume takes neither it nor --from.
Status check_optimize_args(OptimizeArgs const& args);

}  // namespace kopt::cli
