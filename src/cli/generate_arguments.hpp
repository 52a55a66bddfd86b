// The command line of `kopt generate TASK --intent TEXT [...]` (registered in command_registry.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "cli/evaluator_options.hpp"
#include "kopt/result.hpp"

namespace CLI {
class App;
}

namespace kopt::cli {

struct GenerateArgs {
  std::string task_dir;
  std::string intent;
  std::string out;  // empty: <task folder>/generated.cu
  std::size_t strategies = 4;
  int repairs = 2;
  std::optional<double> max_cost_usd;
  std::optional<int> max_calls;
  std::string store;    // empty: .kopt/kopt.db
  std::string prompts;  // empty: find_prompts_dir's search
  std::string library;  // empty: find_strategy_library's search
  std::string mode = "launcher";
  std::string arch;
  std::uint64_t seed = 1;
  EvaluatorChoice evaluator;  // --device / --gpus / --queue
  bool no_confirm = false;
  bool json = false;
};

struct CliArguments;
void define_generate_command(CLI::App& app, CliArguments& args);

// What CLI11 cannot check alone: an intent that is not blank, limits that can be met.
Status check_generate_args(GenerateArgs const& args);

}  // namespace kopt::cli
