// The registry itself (settings.hpp says why it is one list). Adding a KOPT_ variable anywhere in the
// sources means adding its entry here and its row to docs/configuration.md (the tests check both).
#include "cli/settings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

#include "cli/suggestions.hpp"
#include "kopt/llm.hpp"

namespace kopt::cli {
namespace {

using enum SettingScope;
using enum SettingType;

// KOPT_LLM_BACKEND's choices, "openai|anthropic|...", kept alive for the table's string_view.
std::string_view llm_backend_choices() {
  static std::string const choices = llm_backend_names("|");
  return choices;
}

// Built once, on first use (not at static initialisation): the LLM backends' names come from their
// registry.
std::span<Setting const> registered_settings() {
  static auto const table = std::to_array<Setting>({
      // [worker]: the GPU worker process.
      {.key = "worker.path",
       .env = "KOPT_WORKER",
       .type = path,
       .default_text = "kopt-worker next to kopt",
       .meaning = "the GPU worker executable",
       .doc = "docs/worker-protocol.md"},
      {.key = "worker.kernel_activity",
       .env = "KOPT_WORKER_KERNEL_ACTIVITY",
       .type = boolean,
       .true_text = "1",
       .false_text = "0",
       .default_text = "true",
       .meaning = "record the kernels a launcher runs through CUPTI (false turns it off)",
       .doc = "docs/timing.md"},
      {.key = "worker.cupti_library",
       .env = "KOPT_WORKER_CUPTI_LIBRARY",
       .type = path,
       .default_text = "libcupti.so.13, libcupti.so, then under CUDA_HOME",
       .meaning = "the libcupti the worker loads for kernel activity",
       .doc = "docs/timing.md"},
      {.key = "worker.require_isolation",
       .env = "KOPT_WORKER_REQUIRE_ISOLATION",
       .type = boolean,
       .true_text = "1",
       .false_text = "0",
       .default_text = "false",
       .meaning = "the worker refuses to start when a containment measure is missing (--require-isolation)",
       .doc = "docs/security.md"},
      {.key = "worker.allow_read",
       .env = "KOPT_WORKER_ALLOW_READ",
       .type = text,
       .default_text = "none",
       .meaning = "more folders the confined worker may read, separated by colons",
       .doc = "docs/security.md"},
      {.key = "worker.confine",
       .env = "KOPT_WORKER_CONFINE",
       .type = boolean,
       .true_text = "1",
       .false_text = "0",
       .default_text = "true",
       .meaning = "confine the worker with Landlock and seccomp (false turns both off, for debugging)",
       .doc = "docs/security.md"},
      {.key = "worker.watch",
       .env = "KOPT_WORKER_WATCH",
       .type = boolean,
       .true_text = "1",
       .false_text = "0",
       .default_text = "true",
       .meaning =
           "name each refused system call or file access, so the candidate ends sandbox_violation (false: "
           "refuse them unnamed)",
       .doc = "docs/security.md"},
      // [compile]: compilation and its cache.
      {.key = "compile.cache_dir",
       .env = "KOPT_CACHE_DIR",
       .type = path,
       .default_text = "$XDG_CACHE_HOME/kopt, else ~/.cache/kopt",
       .meaning = "the compile cache folder",
       .doc = "docs/compile.md"},
      {.key = "compile.no_cache",
       .env = "KOPT_NO_CACHE",
       .type = boolean,
       .true_text = "1",
       .false_text = "0",
       .default_text = "false",
       .meaning = "never read compiled artifacts from the cache (they are still written)",
       .doc = "docs/compile.md"},
      {.key = "compile.server",
       .env = "KOPT_COMPILE_SERVER",
       .type = program,
       .default_text = "kopt-compile next to kopt, else threads",
       .meaning = "the kopt-compile executable of the compile pool; off compiles on threads",
       .doc = "docs/compile.md"},
      {.key = "compile.nice",
       .env = "KOPT_COMPILE_NICE",
       .type = integer,
       .low = 0,
       .high = 19,
       .default_text = "10",
       .meaning = "how far below kopt's CPU priority the compile servers run",
       .doc = "docs/compile.md"},
      {.key = "compile.nvcc_timeout_s",
       .env = "KOPT_NVCC_TIMEOUT_S",
       .type = seconds,
       .low = 0,
       .high = 86400,
       .default_text = "120",
       .meaning = "the longest one nvcc build (launcher mode) may take, in seconds",
       .doc = "docs/compile.md"},
      // [data]: the data folders kopt reads at run time.
      {.key = "data.strategies",
       .env = "KOPT_STRATEGIES",
       .type = path,
       .default_text = "strategies/ next to kopt (up to 3 levels up), else ./strategies",
       .meaning = "the strategy library folder (--strategies overrides it)",
       .doc = "docs/strategies.md"},
      {.key = "data.prompts",
       .env = "KOPT_PROMPTS",
       .type = path,
       .default_text = "prompts/ next to kopt (up to 3 levels up), else ./prompts",
       .meaning = "the LLM prompt templates folder (--prompts overrides it)",
       .doc = "docs/llm.md"},
      {.key = "data.python_package",
       .env = "KOPT_PYTHON_PACKAGE",
       .type = path,
       .default_text = "python/ next to kopt (up to 3 levels up), else ./python",
       .meaning = "the folder holding kopt's Python package kopt_torch (the PyTorch bridge)",
       .doc = "docs/pytorch.md"},
      // [torch]: the PyTorch bridge (`kopt import-torch`, tasks whose reference is a PyTorch module).
      {.key = "torch.python",
       .env = "KOPT_PYTHON",
       .type = path,
       .default_text = ".venv/bin/python3 beside python/ (scripts/setup.sh), else python3 on PATH",
       .meaning = "the Python interpreter with torch that runs the PyTorch bridge",
       .doc = "docs/pytorch.md"},
      // [llm]: the language model of `kopt generate` and `kopt optimize --proposer llm|mixed`.
      {.key = "llm.backend",
       .env = "KOPT_LLM_BACKEND",
       .type = choice,
       .choices = llm_backend_choices(),
       .default_text = "openai",
       .meaning = "how the model is reached",
       .doc = "docs/llm.md"},
      {.key = "llm.base_url",
       .env = "KOPT_LLM_BASE_URL",
       .type = url,
       .default_text = "none (anthropic: https://api.anthropic.com)",
       .meaning = "the server's base URL, e.g. http://localhost:8000/v1",
       .doc = "docs/llm.md"},
      {.key = "llm.model",
       .env = "KOPT_LLM_MODEL",
       .type = text,
       .default_text = "none",
       .meaning = "the model name the server serves",
       .doc = "docs/llm.md"},
      {.key = "llm.api_key",
       .env = "KOPT_LLM_API_KEY",
       .type = text,
       .default_text = "none (anthropic: $ANTHROPIC_API_KEY)",
       .meaning = "the API key; never printed; keep it in the user file, readable by you only",
       .doc = "docs/llm.md",
       .secret = true},
      // [farm]: the evaluation farm's queue (docs/distributed.md).
      {.key = "farm.queue",
       .env = "KOPT_QUEUE",
       .type = text,
       .default_text = "none",
       .meaning = "the farm's Redis server, redis://[user@]host[:port] (put the password in farm.password)",
       .doc = "docs/distributed.md"},
      {.key = "farm.password",
       .env = "KOPT_QUEUE_PASSWORD",
       .type = text,
       .default_text = "none (or the one in the queue's URL)",
       .meaning = "the farm's Redis password; never printed; keep it in the user file, readable by you only",
       .doc = "docs/distributed.md",
       .secret = true},
      {.key = "llm.command",
       .env = "KOPT_LLM_COMMAND",
       .type = command,
       .default_text = "none",
       .meaning = "backend command: the program and its arguments (no shell)",
       .doc = "docs/llm.md"},
      {.key = "llm.command_input",
       .env = "KOPT_LLM_COMMAND_INPUT",
       .type = choice,
       .choices = "json|text",
       .default_text = "json",
       .meaning = "what the backend command reads on stdin",
       .doc = "docs/llm.md"},
      {.key = "llm.replay_file",
       .env = "KOPT_LLM_REPLAY_FILE",
       .type = path,
       .default_text = "none",
       .meaning = "backend replay: the JSONL file of recorded replies",
       .doc = "docs/llm.md"},
      {.key = "llm.replay_order",
       .env = "KOPT_LLM_REPLAY_ORDER",
       .type = choice,
       .choices = "in_order|by_request_hash",
       .default_text = "in_order",
       .meaning = "backend replay: how recorded replies are matched to requests",
       .doc = "docs/llm.md"},
      {.key = "llm.connect_timeout_s",
       .env = "KOPT_LLM_CONNECT_TIMEOUT_S",
       .type = seconds,
       .low = 0,
       .high = 86400,
       .default_text = "10",
       .meaning = "the longest wait for a connection, in seconds",
       .doc = "docs/llm.md"},
      {.key = "llm.idle_timeout_s",
       .env = "KOPT_LLM_IDLE_TIMEOUT_S",
       .type = seconds,
       .low = 0,
       .high = 86400,
       .default_text = "120",
       .meaning = "the longest silence once a reply has started, in seconds",
       .doc = "docs/llm.md"},
      {.key = "llm.timeout_s",
       .env = "KOPT_LLM_TIMEOUT_S",
       .type = seconds,
       .low = 0,
       .high = 86400,
       .default_text = "600",
       .meaning = "the longest one call may take, in seconds",
       .doc = "docs/llm.md"},
      {.key = "llm.max_attempts",
       .env = "KOPT_LLM_MAX_ATTEMPTS",
       .type = integer,
       .low = 1,
       .high = 100,
       .default_text = "4",
       .meaning = "attempts per call, retries included (1: no retry)",
       .doc = "docs/llm.md"},
      {.key = "llm.prices",
       .env = "KOPT_LLM_PRICES",
       .type = path,
       .default_text = "none (costs unknown)",
       .meaning = "the price table file: costs in the store and --max-cost",
       .doc = "docs/llm.md"},
      {.key = "llm.cache_dir",
       .env = "KOPT_LLM_CACHE_DIR",
       .type = path,
       .default_text = "none (no response cache)",
       .meaning = "a response cache: repeated requests are answered without a call",
       .doc = "docs/llm.md"},
      // [log]
      {.key = "log.debug",
       .env = "KOPT_DEBUG",
       .type = boolean,
       .true_text = "1",
       .false_text = "",
       .default_text = "false",
       .meaning = "print debugging notes on stderr (why compiles stay on threads)",
       .doc = "docs/compile.md"},
      // Environment only.
      {.env = "KOPT_NO_CONFIG",
       .type = boolean,
       .true_text = "1",
       .false_text = "0",
       .default_text = "false",
       .meaning = "read no configuration file (any value but empty or 0); for scripts and tests",
       .doc = "docs/configuration.md"},
      {.env = "KOPT_WORKER_WATCH_TRACE",
       .type = path,
       .default_text = "unset",
       .meaning = "append one line per system call the watch judged (call, path, answer) to this file",
       .doc = "docs/security.md"},
      // Internal: set by kopt for its own children, or read by tests only.
      {.env = "KOPT_WORKER_NETNS",
       .scope = internal,
       .type = boolean,
       .default_text = "unset",
       .meaning = "set by kopt-worker --netns-exec for the worker it starts: the network is isolated",
       .doc = "docs/security.md"},
      {.env = "KOPT_CHROMIUM",
       .scope = internal,
       .type = path,
       .default_text = "chromium-headless-shell on PATH",
       .meaning = "test hook: the browser of the report screenshot test",
       .doc = "docs/report.md"},
      {.env = "KOPT_CLI_PROPERTY_VALUES",
       .scope = internal,
       .type = integer,
       .low = 1,
       .high = 1000,
       .default_text = "every value",
       .meaning = "test hook: hostile values tried per option by the command-line property test",
       .doc = "docs/fuzzing.md"},
      // Script: read by scripts/gpu.sh and scripts/lint.sh, never by kopt.
      {.env = "KOPT_GPU_STEP_TIMEOUT",
       .scope = script,
       .type = seconds,
       .low = 0,
       .high = 86400,
       .default_text = "900",
       .meaning = "scripts/gpu.sh: the time limit of each step, in seconds",
       .doc = "docs/benchmarks.md"},
      {.env = "KOPT_SETUP_TORCH",
       .scope = script,
       .type = boolean,
       .default_text = "true",
       .meaning = "scripts/setup.sh: install the pinned PyTorch into .venv (0 skips it, as --no-torch does)",
       .doc = "docs/building.md"},
      {.env = "KOPT_VENV_DIR",
       .scope = script,
       .type = path,
       .default_text = ".venv in the repository",
       .meaning = "scripts/setup.sh: where the PyTorch virtual environment goes",
       .doc = "docs/building.md"},
      {.env = "KOPT_TORCH_CHUNK",
       .scope = script,
       .type = integer,
       .low = 0,
       .high = 1000,
       .default_text = "0",
       .meaning = "scripts/gpu.sh --torch-bench: problems per bench, each packed as it ends (0: one bench)",
       .doc = "docs/pytorch.md"},
      {.env = "KOPT_TORCH_DEADLINE",
       .scope = script,
       .type = seconds,
       .low = 0,
       .high = 86400,
       .default_text = "none",
       .meaning =
           "scripts/gpu.sh --torch-bench with KOPT_TORCH_CHUNK: start no bench after this many seconds",
       .doc = "docs/pytorch.md"},
      {.env = "KOPT_TORCH_PRECISIONS",
       .scope = script,
       .type = text,
       .default_text = "fp32",
       .meaning = "scripts/gpu.sh --torch-bench with KOPT_TORCH_CHUNK: the precisions, separated by spaces",
       .doc = "docs/pytorch.md"},
      {.env = "KOPT_TORCH_TASKS",
       .scope = script,
       .type = path,
       .default_text = "none",
       .meaning = "scripts/gpu.sh --torch-bench with KOPT_TORCH_CHUNK: task folders imported beforehand, one "
                  "folder per precision",
       .doc = "docs/pytorch.md"},
      {.env = "KOPT_TORCH_PROBLEMS",
       .scope = script,
       .type = text,
       .default_text = "suites/pytorch",
       .meaning =
           "scripts/gpu.sh --torch-bench: the PyTorch problems (files or folders, separated by spaces)",
       .doc = "docs/pytorch.md"},
      {.env = "KOPT_SPACES",
       .scope = script,
       .type = text,
       .default_text = "every task",
       .meaning = "scripts/gpu.sh --spaces: only these tasks (names separated by spaces)",
       .doc = "docs/search.md"},
      {.env = "KOPT_KT_ARGS",
       .scope = script,
       .type = text,
       .default_text = "none",
       .meaning = "scripts/gpu.sh --kernel-tuner: extra arguments of bench/kernel_tuner/compare.py",
       .doc = "docs/benchmarks.md"},
      {.env = "KOPT_SUITES_JOBS",
       .scope = script,
       .type = integer,
       .low = 1,
       .high = 1024,
       .default_text = "6",
       .meaning = "scripts/gpu.sh: task checks of the suites run at once",
       .doc = "docs/suites.md"},
      {.env = "KOPT_SUITES_FILTER",
       .scope = script,
       .type = text,
       .default_text = "every task",
       .meaning = "scripts/gpu.sh --suites: an extended regular expression; only task folders whose path "
                  "matches are checked",
       .doc = "docs/suites.md"},
      {.env = "KOPT_BENCH_ARGS",
       .scope = script,
       .type = text,
       .default_text = "none",
       .meaning = "scripts/gpu.sh --suite-bench: extra arguments of kopt bench",
       .doc = "docs/bench.md"},
      {.env = "KOPT_BENCH_GPUS",
       .scope = script,
       .type = integer,
       .low = 1,
       .high = 1024,
       .default_text = "1",
       .meaning = "scripts/gpu.sh --suite-bench: shards of the suite, one per GPU, run at once",
       .doc = "docs/bench.md"},
      {.env = "KOPT_SCALING_TASK",
       .scope = script,
       .type = text,
       .default_text = "examples/sgemm",
       .meaning = "scripts/gpu.sh --gpu-scaling: the task folder whose tunable kernel is searched on 1, 2, 4 "
                  "and 8 GPUs",
       .doc = "docs/distributed.md"},
      {.env = "KOPT_SCALING_BUDGET",
       .scope = script,
       .type = integer,
       .low = 1,
       .high = 100000,
       .default_text = "64",
       .meaning = "scripts/gpu.sh --gpu-scaling: configurations each run evaluates",
       .doc = "docs/distributed.md"},
      {.env = "KOPT_LINT_EXCLUDE",
       .scope = script,
       .type = text,
       .default_text = "nothing",
       .meaning = "scripts/lint.sh: paths to skip, separated by spaces",
       .doc = "docs/configuration.md"},
  });
  return table;
}

std::string choice_list(std::string_view choices) {
  std::string list;
  for (char c : choices) list += c == '|' ? std::string(", ") : std::string(1, c);
  return list;
}

std::string number_text(double value) {
  return fmt::format("{}", value);
}

}  // namespace

std::span<Setting const> all_settings() noexcept {
  return registered_settings();
}

Setting const* find_setting_by_key(std::string_view key) noexcept {
  auto const settings = registered_settings();
  auto const it = std::find_if(settings.begin(), settings.end(),
                               [&](Setting const& s) { return !s.key.empty() && s.key == key; });
  return it == settings.end() ? nullptr : &*it;
}

Setting const* find_setting_by_env(std::string_view env) noexcept {
  auto const settings = registered_settings();
  auto const it =
      std::find_if(settings.begin(), settings.end(), [&](Setting const& s) { return s.env == env; });
  return it == settings.end() ? nullptr : &*it;
}

std::string_view key_table(std::string_view key) noexcept {
  auto const dot = key.find('.');
  return dot == std::string_view::npos ? std::string_view() : key.substr(0, dot);
}

std::string_view key_name(std::string_view key) noexcept {
  auto const dot = key.find('.');
  return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

std::optional<std::string_view> nearest_setting_key(std::string_view unknown) {
  if (Setting const* named = find_setting_by_env(unknown); named != nullptr && !named->key.empty()) {
    return named->key;
  }
  std::optional<std::string_view> best;
  std::size_t best_distance = 3;  // more than two edits away is not a typo
  for (Setting const& s : registered_settings()) {
    if (s.key.empty()) continue;
    // A dotted name is compared whole; a bare name also with each key's name part ("model").
    std::size_t distance = edit_distance(unknown, s.key);
    if (key_table(unknown).empty()) distance = std::min(distance, edit_distance(unknown, key_name(s.key)));
    if (distance < best_distance && distance < unknown.size()) {
      best = s.key;
      best_distance = distance;
    }
  }
  return best;
}

std::optional<std::string_view> nearest_setting_table(std::string_view unknown) {
  std::optional<std::string_view> best;
  std::size_t best_distance = 3;
  for (Setting const& s : registered_settings()) {
    std::string_view const table = key_table(s.key);
    if (table.empty()) continue;
    std::size_t const distance = edit_distance(unknown, table);
    if (distance < best_distance && distance < unknown.size()) {
      best = table;
      best_distance = distance;
    }
  }
  return best;
}

std::string expected_text(Setting const& setting) {
  switch (setting.type) {
    case SettingType::text: return "a string";
    case SettingType::url: return "a URL string starting with http:// or https://";
    case SettingType::path: return "a path (string)";
    case SettingType::boolean: return "true or false";
    case SettingType::integer:
      return fmt::format("an integer from {} to {}", number_text(setting.low), number_text(setting.high));
    case SettingType::seconds:
      return fmt::format("a number of seconds greater than {} and at most {}", number_text(setting.low),
                         number_text(setting.high));
    case SettingType::choice: return "one of " + choice_list(setting.choices);
    case SettingType::program: return "\"on\", \"off\", a path (string), or true/false";
    case SettingType::command: return "an array of strings (the program and its arguments) or a string";
  }
  return "a value";
}

std::string_view to_string(SettingScope scope) noexcept {
  switch (scope) {
    case SettingScope::user: return "user";
    case SettingScope::internal: return "internal";
    case SettingScope::script: return "script";
  }
  return "user";
}

std::string settings_table_row(Setting const& setting) {
  std::string const key = setting.key.empty() ? std::string("—") : fmt::format("`{}`", setting.key);
  // A variable without a file key is only ever written in the environment, where a flag is 1 or unset.
  std::string const value = setting.key.empty() && setting.type == SettingType::boolean
                                ? std::string("1 or unset")
                                : expected_text(setting);
  return fmt::format("| {} | `{}` | {} | {} | {} | {} | {} |", key, setting.env, to_string(setting.scope),
                     value, setting.default_text, setting.meaning, setting.doc);
}

std::string settings_table() {
  std::string table =
      "| key | variable | kind | value | default | meaning | more |\n"
      "|---|---|---|---|---|---|---|\n";
  for (Setting const& s : registered_settings()) table += settings_table_row(s) + "\n";
  return table;
}

}  // namespace kopt::cli
