#include "cli/farm_endpoint.hpp"

#include <cstdlib>
#include <utility>

namespace kopt::cli {

Result<FarmQueue> farm_queue(FarmQueueArgs const& args) {
  std::string url = args.queue;
  if (url.empty()) {
    char const* from_env = std::getenv("KOPT_QUEUE");  // NOLINT(concurrency-mt-unsafe)
    if (from_env == nullptr || *from_env == '\0') {
      return make_error(ErrorCode::invalid_argument,
                        "no queue: pass --queue redis://HOST:PORT or set KOPT_QUEUE (farm.queue)");
    }
    url = from_env;
  }
  auto endpoint = farm::parse_redis_url(url);
  if (!endpoint) return endpoint.error();
  if (char const* password = std::getenv("KOPT_QUEUE_PASSWORD");  // NOLINT(concurrency-mt-unsafe)
      password != nullptr && *password != '\0')
    endpoint->password = password;
  farm::QueueNames names;
  names.prefix = args.prefix;
  names.group = args.group;
  return FarmQueue{std::move(*endpoint), std::move(names)};
}

}  // namespace kopt::cli
