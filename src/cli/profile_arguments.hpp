// The command line of `kopt profile TASK CANDIDATE [--size S] [--stage1-only] [--ncu PATH] [--json]`
// (registered in command_registry.cpp).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace kopt::cli {

struct ProfileArgs {
  std::string task_dir;
  std::string candidate;
  std::string size;  // empty: the largest timed size case
  std::string ncu;   // empty: found on PATH or under /opt/nvidia/nsight-compute
  bool stage1_only = false;
  bool json = false;
  int device = 0;
};

struct CliArguments;
void define_profile_command(CLI::App& app, CliArguments& args);

}  // namespace kopt::cli
