// The command lines of `kopt strategies [TASK] [--show NAME | --instantiate NAME -o FILE | --write-binding]
// [--json]` and
// `kopt bench SUITE... [--filter TEXT] [--budget N] ...` (registered in command_registry.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/evaluator_options.hpp"

namespace CLI {
class App;
}

namespace kopt::cli {

struct StrategiesArgs {
  std::string task_dir;        // empty: list the whole library
  std::string show;            // print one strategy in full
  std::string instantiate;     // write the strategy instantiated for the task
  std::string out;             // where --instantiate writes (default: stdout)
  std::string library;         // --strategies DIR
  std::string arch;            // for min_arch (default: no check)
  std::string store;           // where verified bindings are read (default .kopt/kopt.db)
  bool write_binding = false;  // write the task's verified binding into its [binding] table
  bool json = false;
};

struct BenchArgs {
  std::vector<std::string> roots;  // suite folders or task folders
  std::vector<std::string> filters;
  std::size_t budget = 24;  // unique configurations per task
  double time_per_task_s = 0.0;
  std::string search = "mcts";
  std::uint64_t seed = 1;
  std::string store;
  std::string out_dir;  // bench.json, bench.md, bench.svg
  std::string library;
  std::string arch;
  std::vector<std::string> use;
  std::vector<std::string> merge;  // kopt.bench/1 files to combine instead of running
  bool no_search = false;
  bool no_size_dispatch = false;  // one kernel for every size case of a task
  std::string shard;              // "I/N": this part of the suite (several GPUs at once)
  bool profile_gaps = false;      // Nsight Compute evidence for rows that miss a goal
  std::string ncu;                // the ncu executable (empty: on PATH, else /opt/nvidia/nsight-compute)
  bool json = false;
  EvaluatorChoice evaluator;       // --device / --gpus / --queue
  bool torch = false;              // the roots hold PyTorch problems (also found without it: docs/bench.md)
  std::string precision = "fp32";  // of the tasks PyTorch problems are imported as
  bool force_import = false;       // import every problem again, even when its task folder is up to date
  std::string tasks_dir;           // where PyTorch problems are imported (empty: <out>/tasks)
  bool import_only = false;        // import the PyTorch problems and stop: no GPU needed
};

struct CliArguments;
void define_strategies_command(CLI::App& app, CliArguments& args);
void define_bench_command(CLI::App& app, CliArguments& args);

}  // namespace kopt::cli
