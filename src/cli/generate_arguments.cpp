#include "cli/generate_arguments.hpp"

#include "cli/evaluator_options.hpp"
#include "cli/option_checks.hpp"

// GCC 12 reports a false "potential null pointer dereference" inside CLI11's own string helpers.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <CLI/CLI.hpp>
#pragma GCC diagnostic pop

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli/arguments.hpp"
#include "cli/isolation_option.hpp"
#include "kopt/llm.hpp"

namespace kopt::cli {
namespace {

// One line per LLM backend of the registry: its KOPT_LLM_BACKEND value, what it is, what it needs.
std::string llm_backends_help() {
  std::string text = "Backends (KOPT_LLM_BACKEND):\n";
  for (LlmBackendInfo const& backend : llm_backends()) {
    std::vector<std::string> needs;
    if (backend.needs_network) needs.emplace_back("network");
    if (backend.needs_model) needs.emplace_back("KOPT_LLM_MODEL");
    if (backend.needs_api_key) needs.emplace_back("an API key");
    std::string const needs_text =
        needs.empty() ? "" : "; needs " + fmt::format("{}", fmt::join(needs, ", "));
    text += fmt::format("  {:<10} {}{}\n", backend.name, backend.description, needs_text);
  }
  return text;
}

}  // namespace

void define_generate_command(CLI::App& app, CliArguments& args) {
  auto* generate = app.add_subcommand(
      "generate",
      "Have a language model write kernels for a task: one generator request per strategy of the\n"
      "strategy library that applies to the task (a mixture of ideas; a task without a family gets one\n"
      "generic request), each kernel verified against the reference and timed (screen tier), failures\n"
      "sent back with the compiler log or verification message for --repairs rounds, the fastest\n"
      "verified kernel confirmed with the full timing protocol and written to -o.");
  generate->footer(
      "Examples:\n"
      "  export KOPT_LLM_BASE_URL=http://localhost:8000/v1 KOPT_LLM_MODEL=qwen2.5-coder-32b\n"
      "  kopt generate examples/softmax --intent \"row-wise softmax over C columns, numerically stable\"\n"
      "  kopt generate tasks/gemv --intent \"y = A x, A row-major\" --strategies 2 --max-cost 0.50 -o "
      "gemv.cu\n"
      "  KOPT_LLM_BACKEND=replay KOPT_LLM_REPLAY_FILE=examples/softmax/llm-replay/generate.jsonl \\\n"
      "    kopt generate examples/softmax --intent \"row-wise softmax\" -o /tmp/softmax.cu\n"
      "\n"
      "The model comes from the environment (docs/llm.md): KOPT_LLM_BACKEND (below; default openai),\n"
      "KOPT_LLM_BASE_URL, KOPT_LLM_MODEL, KOPT_LLM_API_KEY (ANTHROPIC_API_KEY),\n"
      "KOPT_LLM_PRICES (a price table: costs and --max-cost), KOPT_LLM_CACHE_DIR (answers repeated\n"
      "requests without a call), KOPT_LLM_REPLAY_FILE. The API key never appears in output or the store.\n"
      "\n" +
      llm_backends_help() +
      "\n"
      "Progress goes to stderr, one line per attempt; then a table of attempts (strategy, round, status,\n"
      "speedup, tokens, cost, latency), or a kopt.generate/1 document with --json. Every call and every\n"
      "kernel is recorded in the store as a run of strategy 'generate' (kopt runs, kopt report,\n"
      "kopt export). --max-cost and --max-calls stop the run cleanly: kernels already written are still\n"
      "evaluated and the best verified one is kept.\n"
      "Exit code 0 when a verified kernel was written, 1 when none verified, 2 bad input or LLM\n"
      "configuration, 3 no GPU or worker.");
  auto& a = args.generate;
  generate->add_option("task-dir", a.task_dir, "task folder (or its task.toml)")->required();
  generate->add_option("--intent", a.intent, "what the kernel should do, in plain language")->required();
  generate->add_option("-o,--out", a.out, "where the best verified kernel goes (default TASK/generated.cu)");
  generate->add_option("--strategies", a.strategies, "generator requests, one per strategy (default 4)")
      ->check(whole_number_between(1, 64));
  generate->add_option("--repairs", a.repairs, "repair rounds for each failed kernel (default 2)")
      ->check(whole_number_between(0, 16));
  generate->add_option("--max-cost", a.max_cost_usd, "stop before spending more than this many USD")
      ->check(number_above(0));
  generate->add_option("--max-calls", a.max_calls, "stop after this many LLM calls")
      ->check(whole_number_between(1, 100000));
  generate->add_option("--store", a.store, "SQLite store (default .kopt/kopt.db)");
  generate->add_option("--prompts", a.prompts, "prompt templates folder (default: prompts/ next to kopt)");
  generate->add_option("--library", a.library, "strategy library folder (default: strategies/ next to kopt)");
  generate->add_option("--mode", a.mode, "what to ask for: launcher (default) or kernel (needs [launch])")
      ->check(CLI::IsMember({"launcher", "kernel"}));
  generate->add_option("--arch", a.arch, "GPU architecture to compile for (default: the GPU's)");
  generate->add_option("--seed", a.seed, "seed for input generation (default 1)");
  add_evaluator_options(*generate, a.evaluator);
  generate->add_flag("--no-confirm", a.no_confirm, "skip the confirm-tier evaluation of the best kernel");
  generate->add_flag("--json", a.json, "print a kopt.generate/1 JSON document (no progress)");
  add_require_isolation_flag(*generate, args.global.require_isolation);
}

Status check_generate_args(GenerateArgs const& args) {
  if (args.intent.find_first_not_of(" \t\r\n") == std::string::npos) {
    return make_error(ErrorCode::invalid_argument,
                      "--intent: expected a plain-language description of the kernel, got a blank text");
  }
  if (args.max_cost_usd && !(std::isfinite(*args.max_cost_usd) && *args.max_cost_usd > 0.0)) {
    return make_error(ErrorCode::invalid_argument, "--max-cost: expected a positive number of USD");
  }
  return Ok{};
}

}  // namespace kopt::cli
