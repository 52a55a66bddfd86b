// InMemoryActionMemory: per action name, tries and running mean gain.
#include "kopt/search.hpp"

namespace kopt {

ActionStats InMemoryActionMemory::stats(std::string_view action) const {
  auto const it = stats_.find(action);
  return it == stats_.end() ? ActionStats{} : it->second;
}

void InMemoryActionMemory::record(std::string_view action, double gain) {
  auto it = stats_.find(action);
  if (it == stats_.end()) it = stats_.emplace(std::string(action), ActionStats{}).first;
  ActionStats& entry = it->second;
  ++entry.tries;
  entry.mean_gain += (gain - entry.mean_gain) / entry.tries;
}

}  // namespace kopt
