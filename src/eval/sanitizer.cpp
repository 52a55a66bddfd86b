#include "eval/sanitizer.hpp"

#include <unistd.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "kopt/toolchain.hpp"
#include "worker/client/worker_client.hpp"

namespace kopt {

using nlohmann::json;

std::optional<int> sanitizer_error_count(std::string const& log) {
  static std::regex const error_summary(R"(ERROR SUMMARY:\s+(\d+)\s+error)");
  // "RACECHECK SUMMARY: 3 hazards displayed (1 errors, 2 warnings)": warnings are not races.
  static std::regex const race_errors(R"(RACECHECK SUMMARY:[^(\n]*\((\d+)\s+error)");
  static std::regex const race_summary(R"(RACECHECK SUMMARY:\s+(\d+)\s+hazard)");
  std::smatch m;
  if (std::regex_search(log, m, race_errors)) return std::stoi(m[1].str());
  if (std::regex_search(log, m, race_summary)) return std::stoi(m[1].str());
  if (std::regex_search(log, m, error_summary)) return std::stoi(m[1].str());
  return std::nullopt;
}

namespace {

std::string excerpt(std::string const& log, std::size_t max_lines) {
  std::istringstream in(log);
  std::string line;
  std::string out;
  std::size_t n = 0;
  while (std::getline(in, line) && n < max_lines) {
    if (line.find("=========") == std::string::npos) continue;
    if (line.find("COMPUTE-SANITIZER") != std::string::npos) continue;
    out += line + "\n";
    ++n;
  }
  return out;
}

}  // namespace

void run_sanitizers(std::filesystem::path const& worker_path, EvalOptions const& options,
                    TaskSpec const& task, std::uint64_t seed, worker::ArtifactRef const& candidate,
                    CandidateReport& report) {
  std::optional<std::filesystem::path> tool = find_program("compute-sanitizer");
  if (!tool) {
    auto in_cuda = find_cuda_home() / "bin" / "compute-sanitizer";
    if (std::filesystem::exists(in_cuda)) tool = in_cuda;
  }
  if (!tool) {
    report.sanitizer = "compute-sanitizer not found: --sanitize was not applied";
    return;
  }
  struct Pass {
    char const* tool;
    CandidateStatus status;
  };
  for (Pass const pass : {Pass{"memcheck", CandidateStatus::runtime_error},
                          Pass{"racecheck", CandidateStatus::nondeterministic}}) {
    std::string const log_path = (std::filesystem::temp_directory_path() /
                                  ("kopt-sanitizer-" + std::to_string(::getpid()) + "-" + pass.tool + ".log"))
                                     .string();
    worker::WorkerOptions wopts;
    wopts.worker_path = worker_path;
    wopts.device = options.device;
    // compute-sanitizer and the worker it instruments share one network namespace (loopback only):
    // they talk over local sockets, and the candidate still reaches nothing outside.
    wopts.wrapper = {worker_path.string(),
                     "--netns-exec",
                     "--",
                     tool->string(),
                     "--tool",
                     pass.tool,
                     "--log-file",
                     log_path,
                     "--print-limit",
                     "20"};
    wopts.extra_args = {"--no-calibration", "--no-netns"};
    wopts.start_timeout = std::chrono::milliseconds(300000);
    auto client = worker::WorkerClient::start(wopts);
    if (!client) {
      report.sanitizer += std::string(pass.tool) + ": could not start (" + client.error().message + "); ";
      continue;
    }
    json request{{"op", "single_trial"},
                 {"task_dir", task.dir.string()},
                 {"sizes", options.sizes},
                 {"seed", seed},
                 {"timeout", {{"ceiling_ms", options.timeout_ceiling_ms * 20}}},
                 {"candidate", worker::to_json(candidate)}};
    auto reply = client->request(
        request, std::chrono::milliseconds(static_cast<long long>(options.timeout_ceiling_ms * 40)));
    client->shutdown();
    std::ifstream in(log_path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string const log = ss.str();
    std::error_code ec;
    std::filesystem::remove(log_path, ec);
    auto errors = sanitizer_error_count(log);
    if (!errors) {
      report.sanitizer += std::string(pass.tool) + ": no summary in its log; ";
      continue;
    }
    report.sanitizer += std::string(pass.tool) + ": " + std::to_string(*errors) + " error(s); ";
    if (*errors > 0 && report.status == CandidateStatus::ok) {
      report.status = pass.status;
      report.message = std::string("compute-sanitizer ") + pass.tool + " found " + std::to_string(*errors) +
                       " error(s):\n" + excerpt(log, 8);
    }
    (void)reply;
  }
}

}  // namespace kopt
