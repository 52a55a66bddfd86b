// The command line of `kopt farm status` (registered in command_registry.cpp).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace kopt::cli {

struct FarmStatusArgs {
  std::string queue;  // redis://...; empty: $KOPT_QUEUE (farm.queue)
  std::string prefix = "kopt:";
  std::string group = "workers";
  bool json = false;
};

struct CliArguments;
void define_farm_status_command(CLI::App& app, CliArguments& args);

}  // namespace kopt::cli
