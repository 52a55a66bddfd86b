// The command line of `kopt import-torch PROBLEM.py [-o DIR] [--precision fp32|bf16] [--name NAME]
// [--family F] [--force] [--json]` (registered in command_registry.cpp).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace kopt::cli {

struct ImportTorchArgs {
  std::string problem;
  std::string out_dir;  // empty: ./<problem stem>_<precision>
  std::string precision = "fp32";
  std::string name;
  std::string family;
  bool force = false;
  bool json = false;
};

struct CliArguments;
void define_import_torch_command(CLI::App& app, CliArguments& args);

}  // namespace kopt::cli
