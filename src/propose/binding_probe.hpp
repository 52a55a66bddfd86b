// Binding inference on the GPU (docs/strategies.md, "Binding"): a strategy's plausible bindings are tried
// in rank order, each instantiated at its first valid configuration and evaluated against the task's
// reference; the first that verifies is the binding. Private to src/propose.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kopt/propose.hpp"

namespace kopt {

struct BindingProbe {
  std::optional<StrategyBinding> verified;
  std::vector<std::string> tried;  // "c=out, a=x, b=y, n=size: ok" per binding evaluated, in order
};

// At most `max_probes` bindings are evaluated. Error only when the evaluator cannot evaluate at all.
Result<BindingProbe> probe_bindings(StrategyLibrary const& library, LibraryStrategy const& strategy,
                                    TaskSpec const& task, std::vector<StrategyBinding> const& bindings,
                                    std::size_t max_probes, int arch_sm,
                                    std::vector<std::string> const& flags, CandidateEvaluator& evaluator);

}  // namespace kopt
