// The command line of `kopt calibrate [--json] [--device N]` (registered in command_registry.cpp).
#pragma once

namespace CLI {
class App;
}

namespace kopt::cli {

struct CalibrateArgs {
  bool json = false;
  int device = 0;
};

struct CliArguments;
void define_calibrate_command(CLI::App& app, CliArguments& args);

}  // namespace kopt::cli
