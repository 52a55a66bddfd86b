// KoptCandidateEvaluator: candidates on the GPU through kopt::Evaluator, one per timing tier.
#include <map>
#include <utility>

#include "kopt/optimize.hpp"

namespace kopt {

struct KoptCandidateEvaluator::Impl {
  EvalOptions base;
  EvaluationTarget target;
  std::map<TimingTier, std::unique_ptr<Evaluator>> evaluators;

  Result<Evaluator*> evaluator_for(TimingTier tier) {
    if (auto it = evaluators.find(tier); it != evaluators.end()) return it->second.get();
    EvalOptions options = base;
    options.tier = tier;
    auto created = Evaluator::create(options);
    if (!created) return created.error();
    Evaluator* evaluator = created->get();
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
  impl->target = EvaluationTarget{device.name, device.uuid, std::to_string(device.driver_version),
                                  compiler->toolkit_version(),
                                  impl->base.compile.arch.empty() ? device.arch() : impl->base.compile.arch};
  return std::unique_ptr<KoptCandidateEvaluator>(new KoptCandidateEvaluator(std::move(impl)));
}

EvaluationTarget KoptCandidateEvaluator::target() const {
  return impl_->target;
}

Result<std::vector<CandidateReport>> KoptCandidateEvaluator::evaluate(
    TaskSpec const& task, std::vector<CandidateInput> const& candidates, TimingTier tier) {
  // Flags travel with each candidate (CandidateSource::flags), so one evaluate() call takes them all
  // and their compiles overlap GPU work; the task's reference never sees them.
  auto evaluator = impl_->evaluator_for(tier);
  if (!evaluator) return evaluator.error();
  std::vector<CandidateSource> sources;
  sources.reserve(candidates.size());
  for (CandidateInput const& candidate : candidates)
    sources.push_back(CandidateSource{candidate.name, {}, candidate.source, candidate.flags});
  auto report = (*evaluator)->evaluate(task, sources);
  if (!report) return report.error();
  if (report->candidates.size() != candidates.size()) {
    return make_error(ErrorCode::internal_error,
                      "evaluator: " + std::to_string(candidates.size()) + " candidates sent, " +
                          std::to_string(report->candidates.size()) + " reports back");
  }
  std::vector<CandidateReport> reports = std::move(report->candidates);
  return reports;
}

}  // namespace kopt
