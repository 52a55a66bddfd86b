// The command line of `kopt worker` (registered in command_registry.cpp).
#pragma once

#include <optional>
#include <string>

#include "cli/farm_arguments.hpp"

namespace CLI {
class App;
}

namespace kopt::cli {

struct WorkerArgs {
  FarmQueueArgs farm;
  int gpu = 0;
  std::string name;  // the consumer name; empty: <hostname>:gpu<N>
  double lease_s = 30.0;
  int max_deliveries = 3;
  std::optional<double> idle_exit_s;
  bool json = false;
};

struct CliArguments;
void define_worker_command(CLI::App& app, CliArguments& args);

}  // namespace kopt::cli
