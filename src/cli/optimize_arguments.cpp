#include "cli/optimize_arguments.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cctype>

#include "cli/evaluator_options.hpp"
#include "cli/option_checks.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include "cli/arguments.hpp"
#include "cli/isolation_option.hpp"
#include "cli/proposer_registry.hpp"
#include "kopt/search.hpp"

namespace kopt::cli {

void define_optimize_command(CLI::App& app, CliArguments& args) {
  auto* optimize = app.add_subcommand(
      "optimize",
      "Search a candidate's tuning space (// kopt:knob annotations): every configuration is verified and\n"
      "timed (screen tier), recorded in the store, and the best one is confirmed with the full protocol.");
  optimize->footer(
      "Examples:\n"
      "  kopt optimize suites/llm/row_softmax-f32 --budget 48   # the built-in proposer\n"
      "  kopt optimize examples/vector_add --from examples/vector_add/tunable/vector_add_tunable_kernel.cu\n"
      "  kopt optimize tasks/softmax --from k.cu --budget 50 --time 600 --search greedy --seed 7\n"
      "  kopt optimize tasks/softmax --from k.cu --objective energy --budget 30\n"
      "  kopt optimize --resume 3\n"
      "  kopt optimize suites/algebra/gemm-bf16 --gpus 0,1,2,3   # four GPUs, confirmed on GPU 0\n"
      "  kopt optimize suites/algebra/gemm-bf16 --queue redis://kopt@gpu-head   # the farm's workers\n"
      "  kopt optimize examples/softmax --from k.cu --proposer llm --budget 60 --max-cost 2.00\n"
      "  KOPT_LLM_BACKEND=replay KOPT_LLM_REPLAY_FILE=examples/softmax/llm-replay/optimize.jsonl \\\n"
      "    kopt optimize examples/softmax --from examples/softmax/candidates/softmax_warp_kernel.cu \\\n"
      "    --proposer llm --budget 24\n"
      "\n"
      "Progress goes to stderr, one line per configuration with the best so far. A configuration the\n"
      "store already holds (same source, flags, arch and toolkit) is answered from it, not evaluated.\n"
      "\n"
      "--proposer llm|mixed searches over kernel SOURCES (docs/llm.md, \"kopt optimize --proposer\"): a\n"
      "planner model chooses a change and says why, a coder model applies it (SEARCH/REPLACE or a whole\n"
      "file; edits that do not apply, compile errors and wrong results go back for --repairs rounds), each\n"
      "new source's knobs are tuned briefly (--node-budget) and MCTS picks where to edit next; mixed also\n"
      "tries the strategy library's kernels and deeper knob tuning. The model comes from KOPT_LLM_*\n"
      "(as for kopt generate); --max-cost and --max-calls stop the run cleanly and the best kernel is kept.\n"
      "Every call is recorded with its rationale (kopt report RUN); --json adds the steps and LLM cost.\n"
      "Exit code 0 when the best candidate is confirmed ok, 1 when none is, 2 bad input, 3 no GPU.");
  auto& a = args.optimize;
  optimize->add_option("task-dir", a.task_dir, "task folder (or its task.toml)");
  optimize->add_option(
      "--from", a.from,
      "candidate source with // kopt:knob annotations (without any: kopt's generic space)\n"
      "(default: the built-in proposer tunes the strategy library's kernels for the task's family)");
  optimize->add_option("--use", a.use,
                       "built-in proposer: only this strategy (repeatable; kopt strategies TASK)");
  optimize->add_option("--strategies", a.library, "built-in proposer: the strategy library folder");
  optimize->add_option("--budget", a.budget, "unique configurations to try (default 100)")
      ->check(whole_number_at_least(1));
  optimize->add_option("--time", a.time_s, "stop searching after this many seconds (default: no limit)")
      ->check(number_at_least(0));
  auto* search = optimize->add_option("--search", a.strategy, "search strategy (default mcts)")
                     ->check(CLI::IsMember(search_strategy_names()));
  // The old spelling, easily confused with --strategies (library kernels): still accepted, with a note.
  auto* deprecated_search =
      optimize
          ->add_option("--strategy", a.strategy,
                       "deprecated spelling of --search (removed after the next release)")
          ->check(CLI::IsMember(search_strategy_names()));
  search->excludes(deprecated_search);
  optimize
      ->add_option("--objective", a.objective,
                   "what to maximise: runtime (default), energy (J/call, NVML; ~2.5 s more per candidate)\n"
                   "or composite (sqrt of speedup x energy gain); a resumed run keeps its own")
      ->check(CLI::IsMember({"runtime", "energy", "composite"}));
  optimize->add_option("--seed", a.seed, "search seed (default 1); the same seed proposes the same points");
  optimize->add_option("--store", a.store, "SQLite store (default .kopt/kopt.db)");
  optimize->add_flag("--json", a.json, "print a kopt.optimize/1 JSON document (no progress)");
  optimize->add_option("--resume", a.resume, "continue run RUN_ID (from `kopt runs`)");
  optimize->add_option("--flag", a.flags, "extra compiler flag for every candidate, written --flag=-X")
      ->allow_extra_args(false);
  optimize->add_option("--arch", a.arch, "GPU architecture to compile for (default: the GPU's)");
  add_evaluator_options(*optimize, a.evaluator);
  optimize->add_flag("--no-confirm", a.no_confirm, "skip the confirm-tier evaluation of the best candidate");
  optimize->add_flag("--no-memory", a.no_memory,
                     "MCTS: ignore what earlier runs of the task family learned, and teach nothing");
  optimize->add_flag("--no-size-dispatch", a.no_size_dispatch,
                     "one kernel (or configuration of --from's kernel) for all size cases, even where\n"
                     "another is faster at some sizes (default: a launcher that picks the fastest per\n"
                     "size, when that promises 3 % or more and the confirm tier agrees)");
  optimize->add_option("--proposer", a.proposer, optimize_proposer_help())
      ->check(CLI::IsMember(optimize_proposer_names()));
  optimize
      ->add_option("--max-cost", a.max_cost_usd, "llm/mixed: stop before spending more than this many USD")
      ->check(number_above(0));
  optimize->add_option("--max-calls", a.max_calls, "llm/mixed: stop after this many LLM calls")
      ->check(whole_number_between(1, 100000));
  optimize->add_option("--repairs", a.repairs, "llm/mixed: repair rounds for each LLM edit (default 2)")
      ->check(whole_number_between(0, 16));
  optimize->add_option("--node-budget", a.node_budget, "llm/mixed: knob evaluations per source (default 8)")
      ->check(whole_number_between(1, 1000));
  optimize->add_option("--prompts", a.prompts, "llm/mixed: prompt templates folder (default: prompts/)");
  optimize->add_flag("--judge", a.judge,
                     "llm/mixed: a judge model reviews each edited kernel before the GPU");
  add_require_isolation_flag(*optimize, args.global.require_isolation);
  optimize->callback([&args, deprecated_search] {
    if (deprecated_search->count() > 0)
      args.notes.emplace_back("--strategy is deprecated (removed after the next release): use --search");
  });
}

void define_runs_command(CLI::App& app, CliArguments& args) {
  auto* runs = app.add_subcommand(
      "runs", "List the optimize runs in the store, oldest first; a library session with its runs under it.");
  runs->add_option("--store", args.runs.store, "SQLite store (default .kopt/kopt.db); read, never created");
  runs->add_flag("--json", args.runs.json, "print a kopt.runs/2 JSON document");
}

void define_export_command(CLI::App& app, CliArguments& args) {
  auto* exp = app.add_subcommand(
      "export",
      "Write the best verified candidate of a run, or of a session's runs (materialised source). With\n"
      "--torch (a task made by kopt import-torch), write it as one PyTorch file instead: the problem's\n"
      "Model, a ModelNew whose forward runs the kernel (compiled by torch's load_inline at first use) and\n"
      "the custom op torch.ops.kopt.NAME (docs/pytorch.md, \"Back to PyTorch\").");
  exp->footer(
      "Examples:\n"
      "  kopt export 3 -o best.cu                  # the best verified candidate of run 3\n"
      "  kopt export --session 2 -o best.cu        # the best of a session's runs\n"
      "  kopt export 3 --torch -o model_new.py     # a PyTorch task: ModelNew + torch.ops.kopt.<task>\n"
      "  python model_new.py --check               # then, on a GPU: ModelNew against Model, and timing\n\n"
      "When kopt's best is slower than the reference, the reference is written instead (with --torch:\n"
      "nothing, the problem's Model is the faster one); --even-if-slower writes the candidate anyway.\n"
      "--torch takes a launcher (extern \"C\" void forward(...)) or a kernel-mode candidate with its\n"
      "// kopt:launch line, for which a launcher is generated (knob values become #defines).\n"
      "Exit code 0 when written (or the reference kept), 2 for a wrong run, task or option, 3 when the\n"
      "PyTorch bridge's Python cannot run.");
  auto* exp_run = exp->add_option("run", args.export_run.run, "run id (from `kopt runs`)")
                      ->check(whole_number_at_least(1));
  auto* exp_session =
      exp->add_option("--session", args.export_run.session, "session id (from `kopt runs`) instead of a run")
          ->check(whole_number_at_least(1));
  exp_run->excludes(exp_session);
  exp_session->excludes(exp_run);
  exp->add_option("-o,--out", args.export_run.out, "file to write, e.g. best.cu (model_new.py with --torch)")
      ->required();
  exp->add_option("--store", args.export_run.store,
                  "SQLite store (default .kopt/kopt.db); read, never created");
  exp->add_flag("--even-if-slower", args.export_run.even_if_slower,
                "write the best candidate even when it is slower than the reference (by default the\n"
                "reference is written then, and the command says so)");
  auto* torch_flag = exp->add_flag("--torch", args.export_run.torch,
                                   "a PyTorch task: write a Python file with ModelNew and the custom op\n"
                                   "torch.ops.kopt.NAME instead of the kernel's source");
  exp->add_option("--name", args.export_run.torch_name,
                  "with --torch: the op's and the extension's name (default: the task's name)")
      ->needs(torch_flag)
      ->check(CLI::Validator(
          [](std::string const& value) -> std::string {
            bool ok = !value.empty() &&
                      (std::isalpha(static_cast<unsigned char>(value[0])) != 0 || value[0] == '_');
            for (char const c : value)
              ok = ok && (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_');
            return ok ? std::string() : "expected an identifier (letters, digits, _), got '" + value + "'";
          },
          "NAME"));
  exp->callback([&args] {
    if ((args.export_run.run > 0) == (args.export_run.session > 0))
      throw CLI::ValidationError("export", "expected a run id or --session ID");
  });
}

Status check_optimize_args(OptimizeArgs const& args) {
  if (args.resume) {
    if (!args.task_dir.empty() || !args.from.empty()) {
      return make_error(ErrorCode::invalid_argument,
                        "--resume: continues a recorded run (expected no <task-dir> and no --from)");
    }
    if (*args.resume <= 0) return make_error(ErrorCode::invalid_argument, "--resume: expected a run id >= 1");
    if (args.objective != "runtime") {
      return make_error(ErrorCode::invalid_argument,
                        "--objective: a resumed run keeps the objective it was started with (expected no "
                        "--objective with --resume)");
    }
    return Ok{};
  }
  if (args.task_dir.empty())
    return make_error(ErrorCode::invalid_argument, "optimize: expected <task-dir> (or --resume RUN_ID)");
  OptimizeProposer const* proposer = find_optimize_proposer(args.proposer);
  if (proposer == nullptr) {
    return make_error(ErrorCode::invalid_argument,
                      fmt::format("--proposer '{}': expected one of {}", args.proposer,
                                  fmt::join(optimize_proposer_names(), ", ")));
  }
  if (proposer->needs_source && args.from.empty())
    return make_error(ErrorCode::invalid_argument,
                      "--proposer " + args.proposer + ": edits a kernel (expected --from kernel.cu)");
  if (!proposer->any_objective && args.objective != "runtime")
    return make_error(ErrorCode::invalid_argument,
                      "--proposer " + args.proposer + ": optimizes runtime (expected no --objective)");
  if (!proposer->needs_llm && (args.max_cost_usd || args.max_calls)) {
    return make_error(
        ErrorCode::invalid_argument,
        "--max-cost/--max-calls limit LLM calls (expected --proposer " + llm_proposer_names() + ")");
  }
  if (!args.from.empty() && (!args.use.empty() || !args.library.empty()))
    return make_error(
        ErrorCode::invalid_argument,
        "--use/--strategies choose the built-in proposer's strategies (expected no --from with them)");
  return Ok{};
}

}  // namespace kopt::cli
