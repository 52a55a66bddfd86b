// FarmCandidateEvaluator: a search's batches as farm jobs (kopt/optimize_farm.hpp, docs/distributed.md).
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "kopt/eval_json.hpp"
#include "kopt/farm_job.hpp"
#include "kopt/optimize_farm.hpp"

namespace kopt {

struct FarmCandidateEvaluator::Impl {
  farm::JobQueue queue;
  FarmEvaluatorOptions options;
  EvaluationTarget target;
  std::size_t workers = 1;
};

FarmCandidateEvaluator::FarmCandidateEvaluator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FarmCandidateEvaluator::~FarmCandidateEvaluator() = default;

Result<std::unique_ptr<FarmCandidateEvaluator>> FarmCandidateEvaluator::create(
    farm::RedisEndpoint const& endpoint, farm::QueueNames const& names, FarmEvaluatorOptions options) {
  auto shared = farm::JobQueue::connect(endpoint, names);
  if (!shared) return shared.error();
  auto announced = shared->announced();
  if (!announced) return announced.error();
  // The farm's models: "GPU (arch)" -> the first announcement of it and how many workers announced it.
  struct Model {
    farm::WorkerInfo info;
    std::size_t workers = 0;
  };
  std::map<std::string, Model> models;
  for (auto const& [consumer, info] : *announced) {
    Model& model = models[info.gpu + " (" + info.arch + ")"];
    if (model.workers++ == 0) model.info = info;
  }
  auto list = [&] {
    std::string text;
    for (auto const& [name, model] : models)
      text += (text.empty() ? "" : ", ") + name + ": " + std::to_string(model.workers) + " worker" +
              (model.workers == 1 ? "" : "s");
    return text;
  };
  if (models.empty()) {
    return make_error(ErrorCode::not_found, endpoint.describe() +
                                                ": no worker has joined the farm (start `kopt "
                                                "worker --queue ...` on the GPU hosts)");
  }
  std::vector<Model const*> chosen;
  for (auto const& [name, model] : models) {
    if (options.gpu_model.empty() || model.info.gpu == options.gpu_model) chosen.push_back(&model);
  }
  if (chosen.empty()) {
    return make_error(ErrorCode::not_found, endpoint.describe() + ": no worker of '" + options.gpu_model +
                                                "' has joined the farm (it has " + list() + ")");
  }
  if (chosen.size() > 1) {
    return make_error(
        ErrorCode::invalid_argument,
        endpoint.describe() + ": the farm's workers run on several GPU models (" + list() +
            "): timings of different models are not comparable; choose one with --queue-gpu MODEL");
  }
  farm::QueueNames lane_names = names;
  lane_names.lane = farm::lane_for(chosen.front()->info.gpu, chosen.front()->info.arch);
  auto queue = farm::JobQueue::connect(endpoint, lane_names);
  if (!queue) return queue.error();
  EvaluationTarget target;
  target.device_name = chosen.front()->info.gpu;
  target.arch = chosen.front()->info.arch;
  target.driver = chosen.front()->info.driver;
  target.device_uuid = "farm:" + names.prefix + names.group + ":" + lane_names.lane;
  auto impl = std::make_unique<Impl>(
      Impl{std::move(*queue), std::move(options), std::move(target), chosen.front()->workers});
  return std::unique_ptr<FarmCandidateEvaluator>(new FarmCandidateEvaluator(std::move(impl)));
}

EvaluationTarget FarmCandidateEvaluator::target() const {
  return impl_->target;
}

std::size_t FarmCandidateEvaluator::concurrency() const {
  return impl_->workers;
}

namespace {

// The candidate's report from a job's result text.
Result<CandidateReport> report_from(std::string const& result, CandidateInput const& candidate) {
  auto doc = nlohmann::json::parse(result, nullptr, false);
  if (doc.is_object() && doc.value("schema", "") == "kopt.farm_error/1") {
    return make_error(ErrorCode::worker_error, "the farm could not evaluate candidate '" + candidate.name +
                                                   "': " + doc.value("message", std::string("(no message)")));
  }
  auto report = eval_report_from_json(doc);
  if (!report) {
    return make_error(ErrorCode::worker_error,
                      "candidate '" + candidate.name +
                          "': the farm's result is not kopt.eval/1: " + report.error().message);
  }
  if (report->candidates.size() != 1) {
    return make_error(ErrorCode::worker_error, "candidate '" + candidate.name +
                                                   "': the farm's result holds " +
                                                   std::to_string(report->candidates.size()) + " candidates");
  }
  CandidateReport out = std::move(report->candidates.front());
  out.name = candidate.name;
  return out;
}

}  // namespace

Result<std::vector<CandidateReport>> FarmCandidateEvaluator::evaluate(
    TaskSpec const& task, std::vector<CandidateInput> const& candidates, TimingTier tier) {
  auto& queue = impl_->queue;
  std::vector<farm::Job> jobs;
  jobs.reserve(candidates.size());
  for (auto const& candidate : candidates) {
    farm::EvaluationJob job;
    job.task_dir = std::filesystem::absolute(task.dir);
    job.candidate = candidate;
    job.tier = tier;
    // Screen jobs share the search's trials; confirm jobs draw fresh ones (docs/verification.md).
    job.seed = tier == TimingTier::screen ? impl_->options.screen_seed : draw_seed();
    jobs.push_back(farm::to_queue_job(job));
  }
  // Results are read from the stream's end as it is now: a wake-up for each result that lands.
  std::string cursor = "$";
  if (auto enqueued = queue.enqueue_all(jobs); !enqueued) return enqueued.error();
  std::vector<std::optional<CandidateReport>> reports(candidates.size());
  std::size_t done = 0;
  auto const deadline = std::chrono::steady_clock::now() + impl_->options.batch_timeout;
  while (done < candidates.size()) {
    // The results of the jobs still open, in one round trip.
    std::vector<std::size_t> open;
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      if (reports[i]) continue;
      open.push_back(i);
      ids.push_back(jobs[i].id);
    }
    auto results = queue.results(ids);
    if (!results) return results.error();
    for (std::size_t k = 0; k < open.size(); ++k) {
      if (!(*results)[k]) continue;
      auto report = report_from(*(*results)[k], candidates[open[k]]);
      if (!report) return report.error();
      reports[open[k]] = std::move(*report);
      ++done;
    }
    if (done == candidates.size()) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      return make_error(ErrorCode::worker_error,
                        std::to_string(candidates.size() - done) + " of " +
                            std::to_string(candidates.size()) +
                            " farm jobs have no result after the batch timeout (kopt farm status shows the "
                            "workers)");
    }
    auto landed = queue.read_results(cursor, 1000, std::chrono::milliseconds(500));
    if (!landed) return landed.error();
    if (!landed->empty()) cursor = landed->back().cursor;
  }
  std::vector<CandidateReport> out;
  out.reserve(reports.size());
  for (auto& r : reports) out.push_back(std::move(*r));
  return out;
}

}  // namespace kopt
