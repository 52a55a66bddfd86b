// Discovery of the tools kopt uses: nvcc, NVRTC, the CUDA driver, ncu, compute-sanitizer.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "kopt/result.hpp"

namespace kopt {

struct ToolStatus {
  std::string name;  // "nvcc", "NVRTC", "driver", "ncu", ...
  bool found = false;
  std::string version;  // as reported, empty when not found
  std::filesystem::path path;
  std::string note;  // what is missing or what it means
};

// What run_program and run_command report.
struct CommandResult {
  int exit_code = -1;      // 128 + signal when killed by a signal
  std::string output;      // stdout and stderr merged, at most 1 MiB
  bool timed_out = false;  // the command ran past its time limit and was killed
};
// Runs `argv` (argv[0] a path; no shell) with kopt's environment, returns its exit code and combined
// output, killing it and the processes it started after `timeout` when one is given. A convenience over
// run_process (kopt/child_process.hpp) for the tools kopt runs to completion: nvcc, cuobjdump, probes.
CommandResult run_program(std::vector<std::string> const& argv,
                          std::optional<std::chrono::milliseconds> timeout = std::nullopt);
// The same for a command line, through /bin/sh.
CommandResult run_command(std::string const& command);
CommandResult run_command(std::string const& command, std::chrono::milliseconds timeout);
// Quotes `word` for /bin/sh (single quotes; safe for any byte string).
std::string shell_quote(std::string const& word);

std::filesystem::path find_cuda_home();
std::optional<std::filesystem::path> find_program(std::string const& name);

// Host-side tools only (no GPU needed). GPU facts come from the worker (DeviceInfo).
std::vector<ToolStatus> probe_toolchain();

// Path of the running executable's directory (for finding kopt-worker).
std::filesystem::path executable_dir();

// A folder of data kopt reads at run time (the strategy library, the prompt templates).
struct DataFolder {
  std::string name;       // its folder name: "strategies"
  std::string marker;     // a file it must hold, relative to it: "common/strategy.cuh"
  std::string env_var;    // the variable that names it: "KOPT_STRATEGIES"
  std::string what;       // "a strategy library"
  std::string not_found;  // "the strategy library was not found"
  std::string hint;       // "pass --strategies DIR or set KOPT_STRATEGIES"
};
// `explicit_dir` when given, else $env_var, else `name` or share/kopt/`name` next to or up to three levels
// above the running executable (a build tree, an install prefix), else `name` in the current directory.
// Error not_found: names the folder that is not one, or every place tried, and the hint.
Result<std::filesystem::path> find_data_folder(DataFolder const& folder,
                                               std::optional<std::filesystem::path> const& explicit_dir);

}  // namespace kopt
