// Discovery of the tools kopt uses: nvcc, NVRTC, the CUDA driver, ncu, compute-sanitizer.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kopt {

struct ToolStatus {
  std::string name;                 // "nvcc", "NVRTC", "driver", "ncu", ...
  bool found = false;
  std::string version;              // as reported, empty when not found
  std::filesystem::path path;
  std::string note;                 // what is missing or what it means
};

// Runs `command` through /bin/sh, returns exit code and combined output (bounded).
struct CommandResult {
  int exit_code = -1;
  std::string output;
};
CommandResult run_command(std::string const& command);

std::filesystem::path find_cuda_home();
std::optional<std::filesystem::path> find_program(std::string const& name);

// Host-side tools only (no GPU needed). GPU facts come from the worker (DeviceInfo).
std::vector<ToolStatus> probe_toolchain();

// Path of the running executable's directory (for finding kopt-worker).
std::filesystem::path executable_dir();

}  // namespace kopt
