// The command line of `kopt energy TASK CANDIDATE [--size S] [--window SECONDS] [--cooldown SECONDS]
// [--trials N] [--no-reference] [--json]` (registered in command_registry.cpp).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace kopt::cli {

struct EnergyArgs {
  std::string task_dir;
  std::string candidate;
  std::string size;  // empty: the largest timed size case
  double window_s = 2.0;
  double cooldown_s = 1.0;
  int trials = 3;
  bool no_reference = false;
  bool json = false;
  int device = 0;
};

struct CliArguments;
void define_energy_command(CLI::App& app, CliArguments& args);

}  // namespace kopt::cli
