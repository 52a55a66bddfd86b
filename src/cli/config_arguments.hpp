// `kopt config [--json]`: every user setting, its value and where it came from (registered in
// command_registry.cpp; run with the configuration main.cpp loaded at start-up).
#pragma once

#include <iosfwd>

namespace CLI {
class App;
}

namespace kopt::cli {

struct ConfigArgs {
  bool json = false;
};

struct CliArguments;
void define_config_command(CLI::App& app, CliArguments& args);

struct Configuration;
struct Console;
int run_config(ConfigArgs const& args, Configuration const& configuration, Console const& console);

}  // namespace kopt::cli
