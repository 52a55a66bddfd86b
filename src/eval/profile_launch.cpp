// Evaluator::profile_launch: one call of a candidate under Nsight Compute. The worker runs under ncu
// (in its own network namespace, as under compute-sanitizer) and wraps the candidate's call in an NVTX
// range that ncu's --nvtx-include selects, so the reference and kopt's own kernels are never profiled.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "eval/artifact_requests.hpp"
#include "eval/evaluator_impl.hpp"
#include "eval/trial_under_tool.hpp"
#include "kopt/eval.hpp"
#include "kopt/profile.hpp"
#include "kopt/toolchain.hpp"
#include "kopt/worker/protocol.hpp"
#include "kopt/worker/reply_messages.hpp"
#include "kopt/worker/request_messages.hpp"

namespace kopt {
namespace {

using nlohmann::json;
constexpr char const* kCandidateRange = "kopt_candidate";

std::optional<std::filesystem::path> find_ncu(std::filesystem::path const& given) {
  if (!given.empty()) return given;
  if (auto on_path = find_program("ncu")) return on_path;
  std::vector<std::filesystem::path> installed;
  std::error_code ec;
  for (auto const& entry : std::filesystem::directory_iterator("/opt/nvidia/nsight-compute", ec)) {
    if (std::filesystem::exists(entry.path() / "ncu")) installed.push_back(entry.path() / "ncu");
  }
  if (installed.empty()) return std::nullopt;
  std::sort(installed.begin(), installed.end());  // version folders: the newest sorts last
  return installed.back();
}

SizeCase const* choose_size(TaskSpec const& task, std::string const& name) {
  SizeCase const* chosen = nullptr;
  for (auto const& size : task.sizes) {
    if (!name.empty() ? size.name == name : !size.verify_only) chosen = &size;
    if (!name.empty() && chosen) break;
  }
  return chosen;
}

}  // namespace

Result<ProfiledLaunch> Evaluator::profile_launch(TaskSpec const& task, CandidateSource const& candidate,
                                                 ProfileLaunchOptions const& options) {
  auto const start = std::chrono::steady_clock::now();
  ProfiledLaunch out;
  SizeCase const* size = choose_size(task, options.size);
  if (size == nullptr) {
    return make_error(ErrorCode::invalid_argument,
                      options.size.empty()
                          ? fmt::format("task '{}' has no timed size case to profile", task.name)
                          : fmt::format("--size: task '{}' has no size case '{}'", task.name, options.size));
  }
  out.size = size->name;
  auto const ncu = find_ncu(options.ncu);
  if (!ncu) {
    return make_error(ErrorCode::not_found,
                      "Nsight Compute (ncu) not found on PATH or under /opt/nvidia/nsight-compute");
  }
  if (options.metrics.empty()) return make_error(ErrorCode::invalid_argument, "profile_launch: no metrics");

  CandidatePlan const plan = plan_candidate(task, candidate, impl_->options.mode);
  out.mode = plan.mode;
  if (!plan.request) {
    out.status = plan.failure_status;
    out.message = plan.failure;
    return out;
  }
  auto built = impl_->compiles->take(*plan.request);
  if (!built) return built.error();
  if (!built->ok) {
    out.status = CandidateStatus::compile_error;
    out.message = compile_failure_message(built->diagnostics);
    return out;
  }
  out.resources = built->artifact.resources;
  out.artifact = built->artifact.path;
  out.symbol = built->artifact.symbol;

  TrialUnderTool trial;
  trial.worker_path = impl_->worker_path;
  trial.device = impl_->options.device;
  trial.log_file = unique_tool_log("kopt-ncu", ".csv");
  NcuCommand command;
  command.ncu_path = ncu->string();
  command.nvtx_include = std::string(kCandidateRange) + "/";
  command.launch_count = std::max(1, options.max_kernels);
  command.metrics = options.metrics;
  command.log_file = trial.log_file.string();
  auto ncu_argv = ncu_arguments(command);
  if (!ncu_argv) return ncu_argv.error();
  out.command = *ncu_argv;
  trial.tool_command = *ncu_argv;
  worker::SingleTrialRequest request;
  request.selection = {task.dir.string(), {size->name}, impl_->options.seed.value_or(1)};
  request.timeout.ceiling_ms = impl_->options.timeout_ceiling_ms * 20;
  request.nvtx_range = std::string(kCandidateRange);
  request.candidate = artifact_ref(task, plan, built->artifact);
  trial.request = worker::to_json(request);
  trial.timeout_ms = impl_->options.timeout_ceiling_ms * 40;
  auto ran = run_trial_under_tool(trial);
  if (!ran) return ran.error();
  out.ncu_log = std::move(ran->log);
  auto& reply = ran->reply;
  if (!reply) return reply.error();
  if (reply->worker_died) {
    out.status = CandidateStatus::runtime_error;
    out.message = "the worker died under ncu: " + reply->stderr_tail;
  } else if (reply->body.contains("error")) {
    return make_error(ErrorCode::worker_error, "profiling: " + worker::error_of_reply(reply->body).message);
  } else if (auto trial_reply = worker::parse_single_trial_reply(reply->body); trial_reply) {
    out.status = trial_reply->candidate.status;
    out.message = trial_reply->candidate.message;
  } else {
    // Fail closed: a reply kopt cannot read completely (a status it does not know) is a failure.
    out.status = CandidateStatus::runtime_error;
    out.message = "the worker's reply under ncu: " + trial_reply.error().message;
  }
  out.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace kopt
