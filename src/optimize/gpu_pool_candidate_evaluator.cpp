// GpuPoolCandidateEvaluator: one isolated worker per GPU of this host (kopt/optimize_gpu_pool.hpp).
#include <algorithm>
#include <future>
#include <utility>

#include "kopt/optimize_gpu_pool.hpp"

namespace kopt {

namespace {

std::string describe(EvaluationTarget const& target) {
  return target.device_name + " (" + target.arch + ", " + target.device_uuid + ")";
}

// [begin, end) of member `i`'s slice of `count` candidates over `members` GPUs: contiguous, sizes differing
// by at most one, the larger ones first.
std::pair<std::size_t, std::size_t> slice(std::size_t count, std::size_t members, std::size_t i) {
  std::size_t const base = count / members;
  std::size_t const extra = count % members;
  std::size_t const begin = i * base + std::min(i, extra);
  return {begin, begin + base + (i < extra ? 1 : 0)};
}

std::vector<CandidateInput> part(std::vector<CandidateInput> const& candidates,
                                 std::pair<std::size_t, std::size_t> range) {
  return {candidates.begin() + static_cast<std::ptrdiff_t>(range.first),
          candidates.begin() + static_cast<std::ptrdiff_t>(range.second)};
}

// Reports that do not say where they ran (an evaluator other than kopt's) ran on `member`'s GPU.
void mark_place(std::vector<CandidateReport>& reports, CandidateEvaluator const& member) {
  for (CandidateReport& report : reports) {
    if (report.ran_on) continue;
    EvaluationTarget const target = member.target();
    report.ran_on = EvaluationPlace{"", "", -1, target.device_uuid, target.device_name};
  }
}

}  // namespace

GpuPoolCandidateEvaluator::GpuPoolCandidateEvaluator(std::vector<std::unique_ptr<CandidateEvaluator>> members)
    : members_(std::move(members)) {}
GpuPoolCandidateEvaluator::~GpuPoolCandidateEvaluator() = default;

Result<std::unique_ptr<GpuPoolCandidateEvaluator>> GpuPoolCandidateEvaluator::create(
    std::vector<std::unique_ptr<CandidateEvaluator>> members) {
  if (members.empty())
    return make_error(ErrorCode::invalid_argument, "GPU pool: no GPU (expected at least one)");
  EvaluationTarget const first = members.front()->target();
  for (std::size_t i = 1; i < members.size(); ++i) {
    EvaluationTarget const other = members[i]->target();
    if (other.device_name != first.device_name || other.arch != first.arch) {
      return make_error(ErrorCode::invalid_argument,
                        "GPU pool: " + describe(other) + " is not the model of the designated GPU " +
                            describe(first) +
                            ": screen timings are compared only between GPUs of one model; choose GPUs of "
                            "one model (--gpus LIST)");
    }
    if (other.device_uuid == first.device_uuid && !first.device_uuid.empty()) {
      return make_error(ErrorCode::invalid_argument,
                        "GPU pool: " + describe(other) + " is listed twice (expected each GPU once)");
    }
  }
  return std::unique_ptr<GpuPoolCandidateEvaluator>(new GpuPoolCandidateEvaluator(std::move(members)));
}

Result<std::unique_ptr<GpuPoolCandidateEvaluator>> GpuPoolCandidateEvaluator::start(
    EvalOptions base, std::optional<std::vector<int>> devices, std::vector<std::string>* notes) {
  if (!base.seed) base.seed = draw_seed();  // one screen seed for every GPU
  if (devices && devices->empty())
    return make_error(ErrorCode::invalid_argument,
                      "--gpus: no GPU listed (expected 'all' or indices such as 0,1)");
  int const designated = devices ? devices->front() : base.device;
  EvalOptions first_options = base;
  first_options.device = designated;
  auto first = KoptCandidateEvaluator::create(first_options);
  if (!first) return first.error();
  std::vector<int> others;
  if (devices) {
    others.assign(devices->begin() + 1, devices->end());
  } else {
    for (int d = 0; d < (*first)->device().visible_devices; ++d)
      if (d != designated) others.push_back(d);
  }
  // The other workers start at once (each spends a second or two on its GPU's context).
  std::vector<std::future<Result<std::unique_ptr<KoptCandidateEvaluator>>>> starting;
  for (int d : others) {
    EvalOptions options = base;
    options.device = d;
    starting.push_back(
        std::async(std::launch::async, [options] { return KoptCandidateEvaluator::create(options); }));
  }
  EvaluationTarget const model = (*first)->target();
  std::vector<std::unique_ptr<CandidateEvaluator>> members;
  members.push_back(std::move(*first));
  std::optional<Error> failed;
  for (std::size_t i = 0; i < starting.size(); ++i) {
    auto started = starting[i].get();
    if (!started) {
      if (!failed)
        failed =
            Error{started.error().code, "GPU " + std::to_string(others[i]) + ": " + started.error().message};
      continue;
    }
    EvaluationTarget const target = (*started)->target();
    if (!devices && (target.device_name != model.device_name || target.arch != model.arch)) {
      if (notes != nullptr)
        notes->push_back("GPU " + std::to_string(others[i]) + " (" + target.device_name + ", " + target.arch +
                         ") left out: not the model of GPU " + std::to_string(designated) + " (" +
                         model.device_name + ")");
      continue;
    }
    members.push_back(std::move(*started));
  }
  if (failed) return *failed;
  return create(std::move(members));
}

EvaluationTarget GpuPoolCandidateEvaluator::target() const {
  return members_.front()->target();
}

std::size_t GpuPoolCandidateEvaluator::concurrency() const {
  return members_.size();
}

Result<std::vector<CandidateReport>> GpuPoolCandidateEvaluator::evaluate(
    TaskSpec const& task, std::vector<CandidateInput> const& candidates, TimingTier tier) {
  // The numbers a report rests on come from one GPU.
  if (tier == TimingTier::confirm || members_.size() == 1 || candidates.size() <= 1) {
    auto reports = members_.front()->evaluate(task, candidates, tier);
    if (reports) mark_place(*reports, *members_.front());
    return reports;
  }
  std::size_t const used = std::min(members_.size(), candidates.size());
  std::vector<std::future<Result<std::vector<CandidateReport>>>> running;
  for (std::size_t i = 1; i < used; ++i) {
    running.push_back(std::async(std::launch::async, [this, &task, &candidates, tier, used, i] {
      return members_[i]->evaluate(task, part(candidates, slice(candidates.size(), used, i)), tier);
    }));
  }
  auto reports = members_.front()->evaluate(task, part(candidates, slice(candidates.size(), used, 0)), tier);
  std::vector<Result<std::vector<CandidateReport>>> rest;
  rest.reserve(running.size());
  for (auto& r : running) rest.push_back(r.get());  // every GPU finishes before anything is returned
  if (!reports) return reports.error();
  mark_place(*reports, *members_.front());
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (!rest[i]) {
      Error const& error = rest[i].error();
      return make_error(error.code, members_[i + 1]->target().device_uuid + ": " + error.message);
    }
    mark_place(*rest[i], *members_[i + 1]);
    for (auto& report : *rest[i]) reports->push_back(std::move(report));
  }
  if (reports->size() != candidates.size()) {
    return make_error(ErrorCode::internal_error, "GPU pool: " + std::to_string(candidates.size()) +
                                                     " candidates sent, " + std::to_string(reports->size()) +
                                                     " reports back");
  }
  return reports;
}

void GpuPoolCandidateEvaluator::compile_ahead(TaskSpec const& task,
                                              std::vector<CandidateInput> const& candidates) {
  std::size_t const used = std::min(members_.size(), candidates.size());
  for (std::size_t i = 0; i < used; ++i)
    members_[i]->compile_ahead(task, part(candidates, slice(candidates.size(), used, i)));
}

void GpuPoolCandidateEvaluator::prepare(TaskSpec const& task) {
  members_.front()->prepare(task);
}

Status GpuPoolCandidateEvaluator::build_trusted_code(TaskSpec const& task) {
  if (auto built = members_.front()->build_trusted_code(task); !built) return built;
  // From the shared compile cache now: each worker loads its own copies.
  std::vector<std::future<Status>> others;
  for (std::size_t i = 1; i < members_.size(); ++i)
    others.push_back(
        std::async(std::launch::async, [this, &task, i] { return members_[i]->build_trusted_code(task); }));
  Status status = Ok{};
  for (auto& other : others) {
    Status built = other.get();
    if (!built && status) status = std::move(built);
  }
  return status;
}

Result<EnergyReport> GpuPoolCandidateEvaluator::measure_energy(TaskSpec const& task,
                                                               CandidateInput const& candidate,
                                                               EnergyOptions const& options) {
  return members_.front()->measure_energy(task, candidate, options);
}

Result<CandidateProfile> GpuPoolCandidateEvaluator::profile(TaskSpec const& task,
                                                            CandidateInput const& candidate,
                                                            ProfileOptions const& options) {
  return members_.front()->profile(task, candidate, options);
}

}  // namespace kopt
