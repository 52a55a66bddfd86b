// The proposers of `kopt optimize` (--proposer): where its candidates come from. They are too different to
// share one interface (the built-in one tunes the strategy library's kernels or a kernel's knobs; the LLM
// ones run a search over kernel sources), so the registry is a table of what each is and needs, and
// `engine` says which command function runs it (command_optimize.cpp). The option's choices, its help and
// check_optimize_args read the table, never a name.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kopt::cli {

enum class ProposerEngine {
  tuning,         // the strategy library's kernels for the task (no --from), or --from's knobs, tuned
  source_search,  // an MCTS over kernel sources whose actions are LLM edits (run_optimize_llm)
};

struct OptimizeProposer {
  std::string_view name;         // what --proposer takes
  std::string_view description;  // one line, for help
  ProposerEngine engine = ProposerEngine::tuning;
  bool needs_llm = false;      // KOPT_LLM_*; --max-cost and --max-calls apply
  bool needs_source = false;   // edits a kernel: --from is required
  bool any_objective = false;  // energy and composite too (else runtime only)
};

// The registry, in the order help lists them; the first is the default.
std::span<OptimizeProposer const> optimize_proposers() noexcept;
OptimizeProposer const* find_optimize_proposer(std::string_view name) noexcept;
std::vector<std::string> optimize_proposer_names();
// The names of the proposers that call a model, as a sentence: "llm or mixed".
std::string llm_proposer_names();
// --proposer's help: one line per proposer with what it needs.
std::string optimize_proposer_help();

}  // namespace kopt::cli
