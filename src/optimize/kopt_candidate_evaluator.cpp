// KoptCandidateEvaluator: candidates on the GPU through kopt::Evaluator, one per (tier, flag set).
#include <map>
#include <utility>

#include "kopt/optimize.hpp"

namespace kopt {

struct KoptCandidateEvaluator::Impl {
  EvalOptions base;
  EvaluationTarget target;
  std::map<std::pair<TimingTier, std::vector<std::string>>, std::unique_ptr<Evaluator>> evaluators;

  Result<Evaluator*> evaluator_for(TimingTier tier, std::vector<std::string> const& flags) {
    auto key = std::make_pair(tier, flags);
    if (auto it = evaluators.find(key); it != evaluators.end()) return it->second.get();
    EvalOptions options = base;
    options.tier = tier;
    // kopt::Evaluator takes compiler flags per instance, not per candidate: a flag set is an instance.
    options.compile.extra_flags.insert(options.compile.extra_flags.end(), flags.begin(), flags.end());
    auto created = Evaluator::create(options);
    if (!created) return created.error();
    Evaluator* evaluator = created->get();
    evaluators.emplace(std::move(key), std::move(*created));
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
  auto first = impl->evaluator_for(TimingTier::screen, {});
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
  std::vector<CandidateReport> reports(candidates.size());
  // Flags travel with each candidate (CandidateSource::flags), so one evaluate() call takes them all
  // and their compiles overlap GPU work; the task's reference never sees them.
  std::map<std::vector<std::string>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < candidates.size(); ++i) groups[{}].push_back(i);
  for (auto const& [flags, indices] : groups) {
    auto evaluator = impl_->evaluator_for(tier, flags);
    if (!evaluator) return evaluator.error();
    std::vector<CandidateSource> sources;
    for (std::size_t i : indices)
      sources.push_back(CandidateSource{candidates[i].name, {}, candidates[i].source, candidates[i].flags});
    auto report = (*evaluator)->evaluate(task, sources);
    if (!report) return report.error();
    if (report->candidates.size() != indices.size()) {
      return make_error(ErrorCode::internal_error,
                        "evaluator: " + std::to_string(indices.size()) + " candidates sent, " +
                            std::to_string(report->candidates.size()) + " reports back");
    }
    for (std::size_t k = 0; k < indices.size(); ++k) reports[indices[k]] = std::move(report->candidates[k]);
  }
  return reports;
}

}  // namespace kopt
