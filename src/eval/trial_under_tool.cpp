#include "eval/trial_under_tool.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>

namespace kopt {

std::filesystem::path unique_tool_log(std::string_view stem, std::string_view extension) {
  static std::atomic<int> counter{0};
  return std::filesystem::temp_directory_path() /
         fmt::format("{}-{}-{}{}", stem, ::getpid(), counter.fetch_add(1), extension);
}

Result<ToolTrial> run_trial_under_tool(TrialUnderTool const& trial) {
  worker::WorkerOptions options;
  options.worker_path = trial.worker_path;
  options.device = trial.device;
  options.wrapper = {trial.worker_path.string(), "--netns-exec", "--"};
  options.wrapper.insert(options.wrapper.end(), trial.tool_command.begin(), trial.tool_command.end());
  options.extra_args = {"--no-calibration", "--no-netns"};
  options.start_timeout = std::chrono::milliseconds(300000);  // tools start slowly (ncu: seconds)
  auto client = worker::WorkerClient::start(options);
  std::string const tool = trial.tool_command.empty()
                               ? std::string("a tool")
                               : std::filesystem::path(trial.tool_command[0]).filename().string();
  if (!client) {
    return make_error(client.error().code,
                      fmt::format("could not start the worker under {}: {}", tool, client.error().message));
  }
  auto reply =
      client->request(trial.request, std::chrono::milliseconds(static_cast<long long>(trial.timeout_ms)));
  client->shutdown();  // the tool writes (or completes) its log when the process ends
  std::ifstream in(trial.log_file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::error_code ec;
  std::filesystem::remove(trial.log_file, ec);
  return ToolTrial{std::move(reply), text.str()};
}

}  // namespace kopt
