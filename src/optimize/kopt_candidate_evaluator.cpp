// KoptCandidateEvaluator: candidates on the GPU through kopt::Evaluator, one per timing tier.
#include <cstdint>
#include <map>
#include <utility>

#include "kopt/optimize.hpp"

namespace kopt {

struct KoptCandidateEvaluator::Impl {
  EvalOptions base;
  EvaluationTarget target;
  DeviceInfo device;
  std::map<TimingTier, std::unique_ptr<Evaluator>> evaluators;

  Result<Evaluator*> evaluator_for(TimingTier tier) {
    if (auto it = evaluators.find(tier); it != evaluators.end()) return it->second.get();
    EvalOptions options = base;
    options.tier = tier;
    // Screen evaluations share their verification trials (one seed for this evaluator's life), so the
    // worker generates each trial's inputs and runs the reference once, not once per batch; confirm
    // evaluations draw fresh inputs every time (docs/verification.md, "Trials by tier").
    if (tier == TimingTier::screen && !options.seed) options.seed = draw_seed();
    auto created = Evaluator::create(options);
    if (!created) return created.error();
    Evaluator* evaluator = created->get();
    // The tiers share a PyTorch task's reference process: one Python, torch and CUDA start-up per task, and
    // the confirm tier finds what the screen tier's setup already computed (docs/pytorch.md, "Time
    // accounting").
    if (!evaluators.empty()) evaluator->share_torch_references(*evaluators.begin()->second);
    evaluators.emplace(tier, std::move(*created));
    return evaluator;
  }
};

KoptCandidateEvaluator::KoptCandidateEvaluator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
KoptCandidateEvaluator::~KoptCandidateEvaluator() = default;

Result<std::unique_ptr<KoptCandidateEvaluator>> KoptCandidateEvaluator::create(EvalOptions base) {
  auto impl = std::make_unique<Impl>();
  impl->base = std::move(base);
  auto compiler = Compiler::create(impl->base.compile);
  if (!compiler) return compiler.error();
  auto first = impl->evaluator_for(TimingTier::screen);
  if (!first) return first.error();
  DeviceInfo const& device = (*first)->device();
  impl->device = device;
  impl->target = EvaluationTarget{device.name,
                                  device.uuid,
                                  std::to_string(device.driver_version),
                                  compiler->toolkit_version(),
                                  impl->base.compile.arch.empty() ? device.arch() : impl->base.compile.arch,
                                  device.ceilings};
  return std::unique_ptr<KoptCandidateEvaluator>(new KoptCandidateEvaluator(std::move(impl)));
}

EvaluationTarget KoptCandidateEvaluator::target() const {
  return impl_->target;
}

DeviceInfo const& KoptCandidateEvaluator::device() const {
  return impl_->device;
}

namespace {

std::vector<CandidateSource> sources_of(std::vector<CandidateInput> const& candidates) {
  std::vector<CandidateSource> sources;
  sources.reserve(candidates.size());
  for (CandidateInput const& candidate : candidates)
    sources.push_back(CandidateSource{candidate.name, {}, candidate.source, candidate.flags});
  return sources;
}

}  // namespace

void KoptCandidateEvaluator::compile_ahead(TaskSpec const& task,
                                           std::vector<CandidateInput> const& candidates) {
  // Searches evaluate on the screen tier; its evaluator's compile queue is the one asked later.
  if (auto evaluator = impl_->evaluator_for(TimingTier::screen))
    (*evaluator)->compile_ahead(task, sources_of(candidates));
}

void KoptCandidateEvaluator::prepare(TaskSpec const& task) {
  // The screen tier's evaluator builds first; the others share its compile cache.
  if (auto evaluator = impl_->evaluator_for(TimingTier::screen)) (*evaluator)->prepare(task);
}

Status KoptCandidateEvaluator::build_trusted_code(TaskSpec const& task) {
  // Into the compile cache that every tier's evaluator reads.
  auto evaluator = impl_->evaluator_for(TimingTier::screen);
  if (!evaluator) return evaluator.error();
  return (*evaluator)->build_trusted_code(task);
}

Result<std::vector<CandidateReport>> KoptCandidateEvaluator::evaluate(
    TaskSpec const& task, std::vector<CandidateInput> const& candidates, TimingTier tier) {
  // Flags travel with each candidate (CandidateSource::flags), so one evaluate() call takes them all
  // and their compiles overlap GPU work; the task's reference never sees them.
  auto evaluator = impl_->evaluator_for(tier);
  if (!evaluator) return evaluator.error();
  auto report = (*evaluator)->evaluate(task, sources_of(candidates));
  if (!report) return report.error();
  if (report->candidates.size() != candidates.size()) {
    return make_error(ErrorCode::internal_error,
                      "evaluator: " + std::to_string(candidates.size()) + " candidates sent, " +
                          std::to_string(report->candidates.size()) + " reports back");
  }
  std::vector<CandidateReport> reports = std::move(report->candidates);
  return reports;
}

Result<EnergyReport> KoptCandidateEvaluator::measure_energy(TaskSpec const& task,
                                                            CandidateInput const& candidate,
                                                            EnergyOptions const& options) {
  // The screen tier's evaluator is running already; energy windows do not depend on the timing tier.
  auto evaluator = impl_->evaluator_for(TimingTier::screen);
  if (!evaluator) return evaluator.error();
  return (*evaluator)->measure_energy(task, sources_of({candidate}).front(), options);
}

Result<CandidateProfile> KoptCandidateEvaluator::profile(TaskSpec const& task,
                                                         CandidateInput const& candidate,
                                                         ProfileOptions const& options) {
  // The screen tier's evaluator is running already; a profile does not depend on the timing tier.
  auto evaluator = impl_->evaluator_for(TimingTier::screen);
  if (!evaluator) return evaluator.error();
  return profile_candidate(**evaluator, task, sources_of({candidate}).front(), options);
}

}  // namespace kopt
