// `kopt farm status`: what the evaluation farm's queue holds (docs/distributed.md).
#include <cstdlib>
#include <ostream>

#include "cli/commands.hpp"
#include "cli/error_output.hpp"
#include "cli/exit_code.hpp"
#include "kopt/farm.hpp"
#include "kopt/report.hpp"

namespace kopt::cli {

int run_farm_status(FarmStatusArgs const& args, Console const& console) {
  auto fail = [&](Error const& error, ExitCode code) {
    return report_error(error, code, args.json, console.out, console.err);
  };
  std::string url = args.queue;
  if (url.empty()) {
    char const* from_env = std::getenv("KOPT_QUEUE");  // NOLINT(concurrency-mt-unsafe)
    if (from_env == nullptr || *from_env == '\0') {
      return fail(make_error(ErrorCode::invalid_argument,
                             "no queue: pass --queue redis://HOST:PORT or set KOPT_QUEUE (farm.queue)"),
                  ExitCode::usage);
    }
    url = from_env;
  }
  auto endpoint = farm::parse_redis_url(url);
  if (!endpoint) return fail(endpoint.error(), ExitCode::usage);
  if (char const* password = std::getenv("KOPT_QUEUE_PASSWORD");  // NOLINT(concurrency-mt-unsafe)
      password != nullptr && *password != '\0')
    endpoint->password = password;
  farm::QueueNames names;
  names.prefix = args.prefix;
  names.group = args.group;
  auto queue = farm::JobQueue::connect(*endpoint, names);
  if (!queue) return fail(queue.error(), ExitCode::environment);
  auto stats = queue->stats();
  if (!stats) return fail(stats.error(), ExitCode::environment);
  std::string const where =
      endpoint->describe() + " (prefix " + names.prefix + ", group " + names.group + ")";
  if (args.json) {
    console.out << farm_status_json(*stats, endpoint->describe()).dump(2) << '\n';
  } else {
    console.out << render_farm_status(*stats, where);
  }
  return to_int(ExitCode::success);
}

}  // namespace kopt::cli
