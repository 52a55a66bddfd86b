// The registry of `kopt optimize`'s proposers: the one place to list a proposer (its command function is
// chosen by `engine` in command_optimize.cpp).
#include "cli/proposer_registry.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace kopt::cli {
namespace {

constexpr std::array kProposers = std::to_array<OptimizeProposer>({
    {.name = "builtin",
     .description = "tunes the library's kernels for the task, or --from's knobs",
     .engine = ProposerEngine::tuning,
     .needs_llm = false,
     .needs_source = false,
     .any_objective = true},
    {.name = "llm",
     .description = "LLM edits of --from's kernel, searched by MCTS",
     .engine = ProposerEngine::source_search,
     .needs_llm = true,
     .needs_source = true,
     .any_objective = false},
    {.name = "mixed",
     .description = "LLM edits, library kernels and knob moves, by MCTS",
     .engine = ProposerEngine::source_search,
     .needs_llm = true,
     .needs_source = true,
     .any_objective = false},
});

}  // namespace

std::span<OptimizeProposer const> optimize_proposers() noexcept {
  return kProposers;
}

OptimizeProposer const* find_optimize_proposer(std::string_view name) noexcept {
  const auto* const it = std::ranges::find(kProposers, name, &OptimizeProposer::name);
  return it == kProposers.end() ? nullptr : &*it;
}

std::vector<std::string> optimize_proposer_names() {
  std::vector<std::string> names;
  names.reserve(kProposers.size());
  for (OptimizeProposer const& proposer : kProposers) names.emplace_back(proposer.name);
  return names;
}

std::string llm_proposer_names() {
  std::vector<std::string_view> names;
  for (OptimizeProposer const& proposer : kProposers) {
    if (proposer.needs_llm) names.push_back(proposer.name);
  }
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}

std::string optimize_proposer_help() {
  std::string help = "where candidates come from:";
  for (OptimizeProposer const& proposer : kProposers) {
    std::string needs;
    if (proposer.needs_source) needs += " --from";
    if (proposer.needs_llm) needs += needs.empty() ? " KOPT_LLM_*" : ", KOPT_LLM_*";
    help += fmt::format("\n{}{}: {}{}", proposer.name, &proposer == &kProposers.front() ? " (default)" : "",
                        proposer.description, needs.empty() ? "" : "; needs" + needs);
  }
  return help;
}

}  // namespace kopt::cli
