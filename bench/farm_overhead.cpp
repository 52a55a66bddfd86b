// kopt-bench-farm: the evaluation farm's coordinator overhead per job (issue #22; docs/distributed.md,
// "Measured"). A coordinator enqueues --jobs fake jobs in batches of --batch (one round trip each) and reads
// their results back from the results stream while --workers simulated workers (threads running
// run_worker with a runner that answers at once) drain the queue, all against one redis-server. Printed:
// the drain's wall time and throughput, and per job the coordinator's CPU time (enqueueing and collecting:
// the farm's overhead on a search, which must stay far below an evaluation's milliseconds) and its wall
// time inside the enqueue calls (collecting waits for the workers, so its wall time is theirs).
//
//   kopt-bench-farm [--jobs N] [--workers W] [--batch B] [--fsync always|everysec] [--queue URL] [--json]
//
// Without --queue it starts redis-server (from PATH) on a free loopback port, its append-only file in a
// temporary folder fsynced as --fsync says (default always: what docs/distributed.md prescribes).
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "farm/redis_server.hpp"
#include "kopt/farm.hpp"
#include "kopt/farm_worker.hpp"
#include "support/temp_dir.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

class Echo : public kopt::farm::JobRunner {
 public:
  std::string run(kopt::farm::Job const& job, std::atomic<bool> const& /*cancelled*/) override {
    return job.payload;
  }
};

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The evaluation farm's coordinator overhead per job (docs/distributed.md)."};
  int jobs = 100000;
  int workers = 64;
  int batch = 1000;
  std::string fsync = "always";
  std::string queue_url;
  bool json = false;
  app.add_option("--jobs", jobs, "fake jobs to enqueue and drain")->check(CLI::Range(1, 10000000));
  app.add_option("--workers", workers, "simulated workers (threads)")->check(CLI::Range(1, 1024));
  app.add_option("--batch", batch, "jobs per enqueue round trip")->check(CLI::Range(1, 100000));
  app.add_option("--fsync", fsync, "the started server's appendfsync")
      ->check(CLI::IsMember({"always", "everysec"}));
  app.add_option("--queue", queue_url, "an existing server (redis://...) instead of starting one");
  app.add_flag("--json", json, "print the figures as JSON");
  CLI11_PARSE(app, argc, argv);

  kopt::farm::RedisEndpoint endpoint;
  std::optional<kopt::test::TempDir> dir;
  std::optional<kopt::test::RedisServer> server;
  if (!queue_url.empty()) {
    auto parsed = kopt::farm::parse_redis_url(queue_url);
    if (!parsed) {
      fmt::print(stderr, "kopt-bench-farm: {}\n", parsed.error().message);
      return 2;
    }
    endpoint = *parsed;
  } else {
    if (auto reason = kopt::test::RedisServer::unavailable(); !reason.empty()) {
      fmt::print(stderr, "kopt-bench-farm: {}\n", reason);
      return 3;
    }
    dir.emplace();
    server.emplace(dir->path(), std::vector<std::string>{"--appendfsync", fsync});
    if (auto started = server->start(); !started) {
      fmt::print(stderr, "kopt-bench-farm: {}\n", started.error().message);
      return 3;
    }
    endpoint = server->endpoint();
  }
  kopt::farm::QueueNames names;
  names.prefix = fmt::format("kopt-bench-{}:", ::getpid());
  std::optional<kopt::farm::JobQueue> queue;
  for (int attempt = 0; attempt < 200 && !queue; ++attempt) {
    if (auto q = kopt::farm::JobQueue::connect(endpoint, names, milliseconds(200)))
      queue.emplace(std::move(*q));
    else
      std::this_thread::sleep_for(milliseconds(25));
  }
  if (!queue) {
    fmt::print(stderr, "kopt-bench-farm: cannot reach {}\n", endpoint.describe());
    return 3;
  }

  std::atomic<bool> stop = false;
  std::atomic<int> worker_errors = 0;
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(workers));
  auto const started = Clock::now();
  for (int w = 0; w < workers; ++w) {
    threads.emplace_back([&, w] {
      Echo runner;
      kopt::farm::WorkerOptions options;
      options.consumer = fmt::format("bench:{}", w);
      options.lease = std::chrono::seconds(30);
      options.block = milliseconds(200);
      if (!kopt::farm::run_worker(endpoint, names, options, runner, stop)) ++worker_errors;
    });
  }

  // The coordinator: enqueue in batches, then collect every result. Its CPU time and its time inside the
  // queue calls are the overhead it adds per job.
  double const cpu_before = thread_cpu_seconds();
  double in_calls = 0.0;
  auto timed = [&](auto&& call) {
    auto const t = Clock::now();
    auto r = call();
    in_calls += std::chrono::duration<double>(Clock::now() - t).count();
    return r;
  };
  std::vector<kopt::farm::Job> pending;
  for (int i = 0; i < jobs; ++i) {
    pending.push_back({fmt::format("job-{}", i), fmt::format("payload-{}", i)});
    if (static_cast<int>(pending.size()) == batch || i + 1 == jobs) {
      auto added = timed([&] { return queue->enqueue_all(pending); });
      if (!added || *added != pending.size()) {
        fmt::print(stderr, "kopt-bench-farm: enqueue failed\n");
        stop = true;
        break;
      }
      pending.clear();
    }
  }
  double const enqueue_cpu = thread_cpu_seconds() - cpu_before;
  double const enqueue_in_calls = in_calls;
  std::string cursor = "0";
  std::size_t collected = 0;
  while (collected < static_cast<std::size_t>(jobs) && !stop) {
    auto results = queue->read_results(cursor, 10000, milliseconds(1000));
    if (!results) {
      fmt::print(stderr, "kopt-bench-farm: {}\n", results.error().message);
      break;
    }
    if (results->empty()) continue;
    collected += results->size();
    cursor = results->back().cursor;
  }
  double const wall = std::chrono::duration<double>(Clock::now() - started).count();
  double const cpu = thread_cpu_seconds() - cpu_before;
  stop = true;
  for (auto& t : threads) t.join();
  if (server) server->stop();

  double const per_job_us = 1e6 / static_cast<double>(jobs);
  nlohmann::json figures{{"jobs", jobs},
                         {"collected", collected},
                         {"workers", workers},
                         {"batch", batch},
                         {"fsync", queue_url.empty() ? fsync : "server's"},
                         {"wall_s", wall},
                         {"jobs_per_s", static_cast<double>(collected) / wall},
                         {"coordinator_cpu_us_per_job", cpu * per_job_us},
                         {"coordinator_enqueue_cpu_us_per_job", enqueue_cpu * per_job_us},
                         {"coordinator_enqueue_wall_us_per_job", enqueue_in_calls * per_job_us},
                         {"worker_errors", worker_errors.load()}};
  if (json) {
    fmt::print("{}\n", figures.dump(2));
  } else {
    fmt::print("{} jobs, {} workers, batches of {}, appendfsync {}\n", jobs, workers, batch,
               figures["fsync"].get<std::string>());
    fmt::print("drained in {:.2f} s: {:.0f} jobs/s ({} results collected, {} worker errors)\n", wall,
               figures["jobs_per_s"].get<double>(), collected, worker_errors.load());
    fmt::print(
        "coordinator per job: {:.1f} us of CPU ({:.1f} us enqueueing, {:.1f} us collecting); "
        "{:.1f} us of wall time inside the enqueue calls\n",
        cpu * per_job_us, enqueue_cpu * per_job_us, (cpu - enqueue_cpu) * per_job_us,
        enqueue_in_calls * per_job_us);
  }
  return collected == static_cast<std::size_t>(jobs) && worker_errors == 0 ? 0 : 1;
}
