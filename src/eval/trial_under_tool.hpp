// One `single_trial` of a candidate in a fresh worker that runs under an external GPU tool
// (compute-sanitizer for --sanitize, Nsight Compute for profiling). The tool and the worker it runs share
// one network namespace (loopback only: they talk over local sockets, and the candidate still reaches
// nothing outside); the tool writes its findings to a log file, read and removed once the worker ends.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/result.hpp"
#include "kopt/worker/client.hpp"

namespace kopt {

struct TrialUnderTool {
  std::filesystem::path worker_path;
  int device = 0;
  std::vector<std::string> tool_command;  // the tool and its options, without the program it runs
  std::filesystem::path log_file;         // where the tool was told to write its log
  nlohmann::json request;                 // the single_trial request
  double timeout_ms = 0.0;                // the reply's idle timeout
};

struct ToolTrial {
  Result<worker::Reply> reply;  // the worker's answer, or why there was none
  std::string log;              // the tool's log (empty when it wrote none)
};

// A log path in the temporary folder, unique within this process: <stem>-<pid>-<n><extension>.
std::filesystem::path unique_tool_log(std::string_view stem, std::string_view extension);

// Error only when the worker could not be started under the tool.
Result<ToolTrial> run_trial_under_tool(TrialUnderTool const& trial);

}  // namespace kopt
