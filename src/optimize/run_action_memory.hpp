// Private to src/optimize: the search memory MCTS sees during one run of kopt optimize.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kopt/run_log.hpp"
#include "kopt/search.hpp"

namespace kopt::optimize_detail {

// The run's snapshot of what earlier runs learned (RunLog::memory_prior), combined with what this run
// has seen so far: tries add up and the mean gain is the tries-weighted mean of both. Every outcome of
// this run is kept, in order, for the store when the run finishes (replayed ones too: a resumed run
// records the whole run once, see Store::record_search_memory).
class RunActionMemory final : public ActionMemory {
 public:
  explicit RunActionMemory(std::vector<MemoryPrior> const& prior);
  ActionStats stats(std::string_view action) const override;
  void record(std::string_view action, double gain) override;
  std::vector<std::pair<std::string, double>> const& outcomes() const noexcept { return outcomes_; }

 private:
  std::map<std::string, ActionStats, std::less<>> prior_;
  InMemoryActionMemory run_;
  std::vector<std::pair<std::string, double>> outcomes_;
};

}  // namespace kopt::optimize_detail
