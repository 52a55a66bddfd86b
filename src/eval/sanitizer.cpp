#include "eval/sanitizer.hpp"

#include <re2/re2.h>

#include <charconv>
#include <limits>
#include <sstream>
#include <string_view>

#include "eval/trial_under_tool.hpp"
#include "kopt/toolchain.hpp"
#include "kopt/worker/client.hpp"
#include "kopt/worker/request_messages.hpp"

namespace kopt {

using nlohmann::json;

namespace {

// A summary's count; one too large for an int is still that many errors, counted as INT_MAX.
int summary_count(std::string_view digits) {
  int value = 0;
  auto const parsed = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return parsed.ec == std::errc::result_out_of_range ? std::numeric_limits<int>::max() : value;
}

}  // namespace

std::optional<int> sanitizer_error_count(std::string const& log) {
  static RE2 const error_summary(R"(ERROR SUMMARY:\s+(\d+)\s+error)", RE2::Latin1);
  // "RACECHECK SUMMARY: 3 hazards displayed (1 errors, 2 warnings)": warnings are not races.
  static RE2 const race_errors(R"(RACECHECK SUMMARY:[^(\n]*\((\d+)\s+error)", RE2::Latin1);
  static RE2 const race_summary(R"(RACECHECK SUMMARY:\s+(\d+)\s+hazard)", RE2::Latin1);
  re2::StringPiece count;
  if (RE2::PartialMatch(log, race_errors, &count) || RE2::PartialMatch(log, race_summary, &count) ||
      RE2::PartialMatch(log, error_summary, &count)) {
    return summary_count(count);
  }
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
    TrialUnderTool trial;
    trial.worker_path = worker_path;
    trial.device = options.device;
    trial.log_file = unique_tool_log(std::string("kopt-sanitizer-") + pass.tool, ".log");
    trial.tool_command = {tool->string(),          "--tool",        pass.tool, "--log-file",
                          trial.log_file.string(), "--print-limit", "20"};
    worker::SingleTrialRequest request;
    request.selection = {task.dir.string(), options.sizes, seed};
    request.timeout.ceiling_ms = options.timeout_ceiling_ms * 20;
    request.candidate = candidate;
    trial.request = worker::to_json(request);
    trial.timeout_ms = options.timeout_ceiling_ms * 40;
    auto ran = run_trial_under_tool(trial);
    if (!ran) {
      report.sanitizer += std::string(pass.tool) + ": " + ran.error().message + "; ";
      continue;
    }
    std::string const& log = ran->log;
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
  }
}

}  // namespace kopt
