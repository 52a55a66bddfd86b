// farm_stats: `kopt farm status` over every lane of the farm (kopt/farm.hpp).
#include <set>
#include <string>

#include "kopt/farm.hpp"

namespace kopt::farm {

Result<QueueStats> farm_stats(RedisEndpoint const& endpoint, QueueNames const& names) {
  QueueNames shared_names = names;
  shared_names.lane.clear();
  auto shared = JobQueue::connect(endpoint, shared_names);
  if (!shared) return shared.error();
  auto total = shared->stats();  // results, the reclaimed count and the last minute are the farm's
  if (!total) return total.error();
  auto announced = shared->announced();
  if (!announced) return announced.error();
  std::set<std::string> lanes;
  for (auto const& [consumer, info] : *announced) lanes.insert(lane_for(info.gpu, info.arch));
  for (std::string const& lane : lanes) {
    QueueNames lane_names = shared_names;
    lane_names.lane = lane;
    auto queue = JobQueue::connect(endpoint, lane_names);
    if (!queue) return queue.error();
    auto stats = queue->stats();
    if (!stats) return stats.error();
    total->jobs += stats->jobs;
    total->waiting += stats->waiting;
    total->pending += stats->pending;
    for (auto& consumer : stats->consumers) total->consumers.push_back(std::move(consumer));
  }
  return total;
}

}  // namespace kopt::farm
