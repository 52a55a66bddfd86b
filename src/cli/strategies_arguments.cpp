#include "cli/strategies_arguments.hpp"

#include "cli/evaluator_options.hpp"
#include "cli/option_checks.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/arguments.hpp"
#include "cli/isolation_option.hpp"
#include "kopt/search.hpp"

namespace kopt::cli {

void define_strategies_command(CLI::App& app, CliArguments& args) {
  auto* strategies = app.add_subcommand(
      "strategies",
      "The built-in strategy library (strategies/): what each strategy does, the families it serves,\n"
      "and, for a task, which ones apply and why the others do not. --instantiate writes a strategy made\n"
      "concrete for the task: a tunable candidate for `kopt optimize --from` or `kopt eval`.");
  strategies->footer(
      "Examples:\n"
      "  kopt strategies                                   # the whole library\n"
      "  kopt strategies suites/llm/row_softmax-f32        # what applies to this task\n"
      "  kopt strategies --show warp_per_row_softmax\n"
      "  kopt strategies suites/llm/relu-bf16 --instantiate vectorized_map1 -o relu.cu\n"
      "  kopt strategies my_task --write-binding             # pin the binding kopt optimize verified\n\n"
      "The library is found with --strategies DIR, else $KOPT_STRATEGIES, else a strategies/ folder next\n"
      "to or above the kopt executable. docs/strategies.md describes the format and how a task's signature\n"
      "is bound to a strategy's contract; a binding verified on the GPU is kept in the store and marked\n"
      "'verified' here.\n"
      "Exit code 0, 1 --write-binding found no verified binding to write, 2 bad input (unknown task or\n"
      "strategy, library errors).");
  auto& s = args.strategies;
  strategies->add_option("task-dir", s.task_dir, "task folder (or its task.toml): show what applies to it");
  strategies->add_option("--show", s.show, "print one strategy: description, conditions, template");
  strategies->add_option("--instantiate", s.instantiate, "write strategy NAME instantiated for the task");
  strategies->add_option("-o,--out", s.out, "file for --instantiate (default: standard output)");
  strategies->add_option("--strategies", s.library, "the strategy library folder");
  strategies->add_option("--arch", s.arch, "target architecture for min_arch checks, e.g. sm_90");
  strategies->add_option("--store", s.store,
                         "SQLite store the verified bindings are read from (default .kopt/kopt.db)");
  strategies->add_flag(
      "--write-binding", s.write_binding,
      "write the binding `kopt optimize` verified for the task into its task.toml [binding]");
  strategies->add_flag("--json", s.json, "print a kopt.strategies/1 JSON document");
}

void define_bench_command(CLI::App& app, CliArguments& args) {
  auto* bench = app.add_subcommand(
      "bench",
      "Run a benchmark suite end to end: for every task, the built-in proposer tunes the strategies that\n"
      "apply (screen tier), the best is confirmed with the full timing protocol against the reference and\n"
      "the vendor baseline, and a table shows per task and size: status, times, speedup over the\n"
      "reference, ratio to the vendor library and % of speed of light, with geomeans per scenario and\n"
      "overall and the suite's goals checked. Every run is stored like any optimize run.");
  bench->footer(
      "Examples:\n"
      "  kopt bench suites/                                 # the whole suite\n"
      "  kopt bench suites/ --filter llm/ --filter gemv      # tasks whose id contains either text\n"
      "  kopt bench suites/ --budget 48 --out bench-out      # writes bench.json, bench.md, bench.svg\n"
      "  kopt bench suites/ --no-search                      # reference and vendor baseline only\n"
      "  kopt bench suites/ --filter sparse/ --profile-gaps   # Nsight Compute on every missed goal\n"
      "  CUDA_VISIBLE_DEVICES=1 kopt bench suites/ --shard 1/2 --out b   # half the suite on a second GPU\n"
      "  kopt bench --merge a/bench.json b/bench.json --out all   # parts run on two GPUs, as one\n"
      "  kopt bench suites/pytorch --out pt --budget 8        # PyTorch problems: fast_p vs eager and "
      "compile\n"
      "  kopt bench suites/pytorch --import-only --tasks pt-tasks   # import on a CPU machine, bench "
      "later\n\n"
      "Progress goes to stderr, one line per task. Exit code 0 when every task's best kernel verified,\n"
      "1 when some did not, 2 bad input, 3 no GPU. docs/bench.md explains the columns and the goals.");
  auto& b = args.bench;
  bench->add_option("suite", b.roots, "suite folders (e.g. suites/) or task folders");
  bench->add_option("--filter", b.filters, "keep tasks whose id (scenario/task-dtype) contains this text");
  bench
      ->add_option("--budget", b.budget,
                   "unique configurations per task over all its strategies (default 24)")
      ->check(whole_number_at_least(1));
  bench
      ->add_option("--time-per-task", b.time_per_task_s,
                   "search time limit per task in seconds (default none)")
      ->check(number_at_least(0));
  bench->add_option("--search", b.search, "search strategy of each tuning run (default mcts)")
      ->check(CLI::IsMember(search_strategy_names()));
  bench->add_option("--seed", b.seed, "search seed (default 1)");
  bench->add_option("--use", b.use, "only these strategies (repeatable)");
  bench->add_option("--store", b.store, "SQLite store (default .kopt/kopt.db)");
  bench->add_option("--out", b.out_dir, "folder for bench.json, bench.md and bench.svg");
  bench->add_option("--strategies", b.library, "the strategy library folder");
  bench->add_option("--arch", b.arch, "GPU architecture to compile for (default: the GPU's)");
  add_evaluator_options(*bench, b.evaluator);
  bench->add_flag("--no-search", b.no_search, "time the reference and the vendor baseline only");
  bench->add_flag("--no-size-dispatch", b.no_size_dispatch,
                  "one kernel for all of a task's size cases, even where another is faster at some sizes");
  bench->add_option("--shard", b.shard,
                    "I/N: run only every N-th task from the I-th (0-based), to split a suite over GPUs");
  bench->add_flag(
      "--profile-gaps", b.profile_gaps,
      "when a task's largest size misses a goal (85% of DRAM bandwidth, the vendor ratio), profile\n"
      "kopt's kernel and the vendor's under Nsight Compute (clocks left alone) and add the\n"
      "evidence to the table: bottleneck class, DRAM/L2/SM throughput, occupancy, findings");
  bench->add_option("--ncu", b.ncu, "the ncu executable (default: on PATH, else /opt/nvidia/nsight-compute)");
  bench->add_option("--merge", b.merge,
                    "combine these bench.json files (parts of a suite run separately) into one table\n"
                    "instead of running anything; a task in several files keeps its last rows");
  bench->add_flag("--torch", b.torch,
                  "the folders (or files) hold PyTorch problems in the KernelBench format (class Model):\n"
                  "import each as a task, then tune, confirm, and report fast_p over eager and\n"
                  "torch.compile (found without this flag when no task.toml is under them)");
  bench
      ->add_option("--precision", b.precision,
                   "PyTorch problems: the tasks' precision, fp32 or bf16 (default fp32)")
      ->check(CLI::IsMember({"fp32", "bf16"}));
  bench->add_flag("--force-import", b.force_import,
                  "PyTorch problems: import every problem again, even when its task folder holds an import\n"
                  "of the problem's current text");
  bench->add_option("--tasks", b.tasks_dir,
                    "PyTorch problems: the folder of their task folders (default <out>/tasks, else\n"
                    ".kopt/torch-tasks); folders already there for a problem's current text are reused");
  bench->add_flag("--import-only", b.import_only,
                  "PyTorch problems: import them into --tasks and stop (no GPU needed): on a CPU machine,\n"
                  "then copy the folder to the GPU host and bench with the same --tasks");
  bench->add_flag("--json", b.json, "print the kopt.bench/1 JSON document instead of the table");
  add_require_isolation_flag(*bench, args.global.require_isolation);
}

}  // namespace kopt::cli
