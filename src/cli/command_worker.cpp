// `kopt worker`: one GPU serving the evaluation farm (docs/distributed.md). The farm's loop (run_worker)
// with a runner that evaluates each job's candidate as `kopt eval` would, and records the kopt.eval/1
// document (or a kopt.farm_error/1 one when the job cannot be run) as the job's result.
#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <map>
#include <memory>
#include <ostream>
#include <random>
#include <utility>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/exit_code.hpp"
#include "cli/farm_endpoint.hpp"
#include "cli/options.hpp"
#include "kopt/eval.hpp"
#include "kopt/farm_job.hpp"
#include "kopt/farm_worker.hpp"
#include "kopt/host_name.hpp"
#include "kopt/report.hpp"
#include "kopt/task.hpp"
#include "kopt/text.hpp"

namespace kopt::cli {
namespace {

// Set by the first SIGTERM or SIGINT (the handler then gives the signal back its default action, so that a
// second one stops the process at once).
std::atomic<bool> g_stop_requested = false;  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void on_stop_signal(int signal) {
  g_stop_requested = true;
  std::signal(signal, SIG_DFL);  // NOLINT(cert-msc54-cpp): restoring the default is async-signal-safe
}

std::string farm_error(Error const& error) {
  return nlohmann::json{
      {"schema", "kopt.farm_error/1"}, {"code", to_string(error.code)}, {"message", error.message}}
      .dump();
}

class EvaluationRunner final : public farm::JobRunner {
 public:
  EvaluationRunner(EvalOptions base, std::string consumer, std::ostream& log)
      : base_(std::move(base)), consumer_(std::move(consumer)), log_(log) {}

  // The evaluator for unseeded screen jobs, made now: no GPU is an error before the worker joins the farm.
  // The device it found is what the worker announces.
  Result<DeviceInfo> start() {
    auto evaluator = evaluator_for(TimingTier::screen, std::nullopt);
    if (!evaluator) return evaluator.error();
    return (*evaluator)->device();
  }

  std::string run(farm::Job const& job, std::atomic<bool> const& /*cancelled*/) override {
    std::string const tag = fmt::format("[{}] job {}", consumer_, job.id.substr(0, 8));
    auto decoded = farm::decode_job(job.payload);
    if (!decoded) return fail(tag, decoded.error());
    auto task = task_for(decoded->task_dir);
    if (!task) return fail(tag, task.error());
    auto evaluator = evaluator_for(decoded->tier, decoded->seed);
    if (!evaluator) return fail(tag, evaluator.error());
    CandidateSource source{decoded->candidate.name, {}, decoded->candidate.source, decoded->candidate.flags};
    auto report = (*evaluator)->evaluate(**task, {source});
    if (!report) return fail(tag, report.error());
    for (CandidateReport& candidate : report->candidates) {  // the coordinator records which worker ran it
      if (candidate.ran_on) candidate.ran_on->worker = consumer_;
    }
    if (!report->candidates.empty()) {
      log_ << fmt::format("{} {} ({}, {}): {}\n", tag, decoded->candidate.name, (*task)->name,
                          to_string(decoded->tier), candidate_verdict(report->candidates.front()));
    }
    return to_json(*report).dump();
  }

 private:
  std::string fail(std::string const& tag, Error const& error) {
    log_ << fmt::format("{}: {}\n", tag, error.message);
    return farm_error(error);
  }
  Result<TaskSpec const*> task_for(std::filesystem::path const& dir) {
    if (auto it = tasks_.find(dir); it != tasks_.end()) return &it->second;
    auto task = load_task(dir);
    if (!task) return task.error();
    return &tasks_.emplace(dir, std::move(*task)).first->second;
  }
  // One evaluator per tier and seed: a search's screen jobs share theirs (and its cached reference outputs);
  // confirm jobs bring fresh seeds, so old evaluators are let go beyond a few.
  Result<Evaluator*> evaluator_for(TimingTier tier, std::optional<std::uint64_t> seed) {
    auto const key = std::make_pair(tier, seed);
    if (auto it = evaluators_.find(key); it != evaluators_.end()) return it->second.get();
    if (evaluators_.size() >= kMaxEvaluators) evaluators_.clear();
    EvalOptions options = base_;
    options.tier = tier;
    options.seed = seed;
    auto created = Evaluator::create(options);
    if (!created) return created.error();
    return evaluators_.emplace(key, std::move(*created)).first->second.get();
  }

  static constexpr std::size_t kMaxEvaluators = 4;
  EvalOptions base_;
  std::string consumer_;
  std::ostream& log_;
  std::map<std::filesystem::path, TaskSpec> tasks_;
  std::map<std::pair<TimingTier, std::optional<std::uint64_t>>, std::unique_ptr<Evaluator>> evaluators_;
};

std::string default_name(int gpu) {
  return fmt::format("{}:gpu{}", host_name(), gpu);
}

}  // namespace

int run_worker(WorkerArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ExitCode code) {
    return report_error(error, code, args.json, console.out, console.err);
  };
  auto located = farm_queue(args.farm);
  if (!located) return fail(located.error(), ExitCode::usage);
  auto const& endpoint = located->endpoint;
  farm::WorkerOptions options;
  options.consumer = args.name.empty() ? default_name(args.gpu) : args.name;
  options.lease = std::chrono::milliseconds(static_cast<long long>(args.lease_s * 1000.0));
  options.max_deliveries = args.max_deliveries;
  if (args.idle_exit_s)
    options.idle_exit = std::chrono::milliseconds(static_cast<long long>(*args.idle_exit_s * 1000.0));

  EvaluationRunner runner(search_eval_options(0, args.gpu, ""), options.consumer, console.err);
  auto device = runner.start();
  if (!device) return fail(device.error(), ExitCode::environment);
  // The lane of this GPU's model: the jobs of the runs that asked for it (docs/distributed.md).
  farm::QueueNames names = located->names;
  names.lane = farm::lane_for(device->name, device->arch());
  {
    auto queue = farm::JobQueue::connect(endpoint, names);
    if (!queue) return fail(queue.error(), ExitCode::environment);
    farm::WorkerInfo const info{
        host_name(),      device->name, device->arch(), device->uuid, std::to_string(device->driver_version),
        utc_now_iso8601()};
    if (auto announced = queue->announce(options.consumer, info); !announced)
      return fail(announced.error(), ExitCode::environment);
  }

  g_stop_requested = false;
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGINT, on_stop_signal);
  console.err << fmt::format(
      "[{}] serving {} (prefix {}, group {}, lane {}); SIGTERM or Ctrl-C stops after the running "
      "job\n",
      options.consumer, endpoint.describe(), names.prefix, names.group, names.lane);
  auto report = farm::run_worker(endpoint, names, options, runner, g_stop_requested);
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGINT, SIG_DFL);
  if (!report) return fail(report.error(), ExitCode::environment);
  nlohmann::json summary{{"schema", "kopt.farm_worker/1"},
                         {"worker", options.consumer},
                         {"ran", report->ran},
                         {"taken_over", report->taken_over},
                         {"final_verdicts", report->final_verdicts},
                         {"lost_leases", report->lost_leases},
                         {"duplicates", report->duplicates}};
  if (args.json) {
    console.out << summary.dump(2) << '\n';
  } else {
    console.err << fmt::format(
        "[{}] stopped: {} jobs run ({} taken over), {} final verdicts, {} lost leases\n", options.consumer,
        report->ran, report->taken_over, report->final_verdicts, report->lost_leases);
  }
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
