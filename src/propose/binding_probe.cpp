// Binding inference on the GPU: the first plausible binding whose instantiation verifies.
#include "propose/binding_probe.hpp"

#include <fmt/format.h>

#include "kopt/tuning.hpp"

namespace kopt {
namespace {

// The strategy under `binding` at its first valid configuration, as the search would build it.
Result<CandidateInput> first_configuration(StrategyLibrary const& library, LibraryStrategy const& strategy,
                                           TaskSpec const& task, StrategyBinding const& binding, int arch_sm,
                                           std::vector<std::string> const& flags) {
  auto source = instantiate_strategy(library, strategy, task, arch_sm, &binding);
  if (!source) return source.error();
  auto space = TuningSpace::parse(*source, strategy.template_path.filename().string());
  if (!space) return space.error();
  auto enumeration = space->enumerate(tuning_rules_for(task));
  if (!enumeration) return enumeration.error();
  if (enumeration->valid.empty()) {
    return make_error(ErrorCode::invalid_spec, "no valid configuration for " + task.name);
  }
  auto candidate = materialise(*space, enumeration->valid.front(), *source, task);
  if (!candidate) return candidate.error();
  candidate->name = strategy.name + " [" + binding.describe() + "]";
  candidate->flags.insert(candidate->flags.end(), flags.begin(), flags.end());
  return candidate;
}

}  // namespace

Result<BindingProbe> probe_bindings(StrategyLibrary const& library, LibraryStrategy const& strategy,
                                    TaskSpec const& task, std::vector<StrategyBinding> const& bindings,
                                    std::size_t max_probes, int arch_sm,
                                    std::vector<std::string> const& flags, CandidateEvaluator& evaluator) {
  BindingProbe probe;
  for (std::size_t i = 0; i < bindings.size() && i < max_probes; ++i) {
    StrategyBinding const& binding = bindings[i];
    auto candidate = first_configuration(library, strategy, task, binding, arch_sm, flags);
    if (!candidate) {
      probe.tried.push_back(binding.describe() + ": " + candidate.error().message);
      continue;
    }
    auto report = evaluator.evaluate_one(task, *candidate, TimingTier::screen);
    if (!report) return report.error();
    probe.tried.push_back(fmt::format("{}: {}", binding.describe(), to_string(report->status)));
    if (report->status == CandidateStatus::ok) {
      probe.verified = binding;
      break;
    }
  }
  return probe;
}

}  // namespace kopt
