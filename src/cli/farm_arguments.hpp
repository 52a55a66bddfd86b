// The command line of `kopt farm status` (registered in command_registry.cpp), and the options that name a
// farm, which `kopt worker` shares.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace kopt::cli {

// Which farm: its queue's server and its keys (kopt worker, kopt farm status).
struct FarmQueueArgs {
  std::string queue;  // redis://...; empty: $KOPT_QUEUE (farm.queue)
  std::string prefix = "kopt:";
  std::string group = "workers";
};

struct FarmStatusArgs {
  FarmQueueArgs farm;
  bool json = false;
};

// --queue, --prefix and --group on `command`.
void add_farm_queue_options(CLI::App& command, FarmQueueArgs& args);

struct CliArguments;
void define_farm_status_command(CLI::App& app, CliArguments& args);

}  // namespace kopt::cli
