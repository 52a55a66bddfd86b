// RunActionMemory: the store's snapshot for the task family plus this run's outcomes.
#include "run_action_memory.hpp"

#include <algorithm>

#include "kopt/optimize.hpp"

namespace kopt {

std::string search_memory_family(TaskSpec const& task) {
  return task.family_label().empty() ? "task:" + task.name : task.family_label();
}

namespace optimize_detail {

RunActionMemory::RunActionMemory(std::vector<MemoryPrior> const& prior) {
  for (MemoryPrior const& entry : prior) {
    if (entry.tries <= 0) continue;
    // Capped so that sums cannot overflow; a million tries already outweighs any one run.
    auto const tries = static_cast<int>(std::min<std::int64_t>(entry.tries, 1'000'000));
    prior_[entry.action] = ActionStats{tries, entry.mean_gain};
  }
}

ActionStats RunActionMemory::stats(std::string_view action) const {
  ActionStats const now = run_.stats(action);
  auto const it = prior_.find(action);
  if (it == prior_.end()) return now;
  ActionStats const& before = it->second;
  int const tries = before.tries + now.tries;
  double const mean = (before.mean_gain * before.tries + now.mean_gain * now.tries) / tries;
  return ActionStats{tries, mean};
}

void RunActionMemory::record(std::string_view action, double gain) {
  run_.record(action, gain);
  outcomes_.emplace_back(std::string(action), gain);
}

}  // namespace optimize_detail
}  // namespace kopt
