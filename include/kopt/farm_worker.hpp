// A farm worker's loop (docs/distributed.md): one consumer of the jobs stream, one GPU. It takes over jobs
// whose worker stopped (idle past the lease) before it takes new ones, gives a job that was delivered too
// often its final verdict instead of another run, renews its lease while a job runs (from a second
// connection, every lease / 3), and records each result once. What a job is, and how it runs, is the
// JobRunner's business.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "kopt/farm.hpp"
#include "kopt/result.hpp"

namespace kopt::farm {

class JobRunner {
 public:
  virtual ~JobRunner() = default;
  // Runs the job and returns its result (opaque text, JSON by convention). `cancelled` turns true when the
  // worker lost its lease on the job (another worker has taken it over): stop early; what is returned then
  // is dropped.
  virtual std::string run(Job const& job, std::atomic<bool> const& cancelled) = 0;
  // The result of a job that was delivered `deliveries` times and never finished: each worker that took it
  // stopped (killed, its host lost). By default a runtime_error verdict in JSON.
  virtual std::string final_verdict(Job const& job, std::int64_t deliveries);
};

struct WorkerOptions {
  std::string consumer;                                        // unique per GPU, e.g. "host:gpu0"
  std::chrono::milliseconds lease = std::chrono::seconds(30);  // a job idle this long is taken over
  std::chrono::milliseconds block = std::chrono::seconds(1);   // how long one take() waits for a job
  std::int64_t max_deliveries = 3;  // a job delivered more often than this gets final_verdict()
  std::optional<std::chrono::milliseconds> idle_exit;  // return after this long without a job
  std::optional<std::size_t> max_jobs;                 // return after this many jobs
};

struct WorkerReport {
  std::size_t ran = 0;             // jobs run (new and taken over)
  std::size_t taken_over = 0;      // of them, jobs another worker had abandoned
  std::size_t final_verdicts = 0;  // jobs given final_verdict() instead of a run
  std::size_t lost_leases = 0;     // jobs taken over by another worker while they ran here (results dropped)
  std::size_t duplicates = 0;      // results not recorded because the job had one already
};

// Runs until `stop` turns true (the job running then is finished first: a stop drains, it does not cut a
// job short), or idle_exit / max_jobs says so. Error io_error when the queue is lost (the caller restarts
// the loop; the job it held is taken over by another worker after the lease).
Result<WorkerReport> run_worker(RedisEndpoint const& endpoint, QueueNames const& names,
                                WorkerOptions const& options, JobRunner& runner,
                                std::atomic<bool> const& stop);

}  // namespace kopt::farm
