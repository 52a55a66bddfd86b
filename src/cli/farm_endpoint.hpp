// Where the farm's queue is, for `kopt worker` and `kopt farm status`: --queue, else $KOPT_QUEUE
// (farm.queue); the password from $KOPT_QUEUE_PASSWORD (farm.password) when set, else the URL's.
#pragma once

#include <string>

#include "cli/farm_arguments.hpp"
#include "kopt/farm.hpp"
#include "kopt/result.hpp"

namespace kopt::cli {

struct FarmQueue {
  farm::RedisEndpoint endpoint;
  farm::QueueNames names;
};

// Error invalid_argument: no queue given, or a URL parse_redis_url refuses.
Result<FarmQueue> farm_queue(FarmQueueArgs const& args);

}  // namespace kopt::cli
