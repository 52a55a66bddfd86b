// The evaluation farm's job queue (docs/distributed.md): evaluation jobs in a Redis stream, read by a
// consumer group of workers (one consumer per GPU, any number of hosts), each result recorded once per job.
//
// A job's life: enqueue (once per job id: a job enqueued twice is one entry) → take (XREADGROUP: the entry
// is pending for that consumer) → the worker refreshes its lease while it runs (XCLAIM JUSTID resets the
// entry's idle time) → finish (the result stored under the job id unless one already is, published on the
// results stream, the entry acknowledged: all in one server-side script). An entry idle past the lease (its
// worker was killed, its host vanished) is reclaimed by another worker (XAUTOCLAIM), which counts one more
// delivery; after too many deliveries the job gets a final verdict instead of another run. A result is
// recorded once whatever happens: a job finished twice (a zombie worker, a reclaimed job that completes
// twice) keeps its first result.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kopt/result.hpp"

namespace kopt::farm {

// Where the Redis server is and who kopt is there. The password is never logged or stored by kopt.
struct RedisEndpoint {
  std::string host = "127.0.0.1";
  int port = 6379;
  std::string user;              // Redis 6 ACL user; empty: the default user
  std::string password;          // empty: no AUTH
  std::string describe() const;  // "redis://user@host:port", without the password
};

// redis://[[user][:password]@]host[:port], host a name, an IPv4 address or [IPv6]; port 1..65535 (default
// 6379). Error invalid_argument naming the part that is wrong.
Result<RedisEndpoint> parse_redis_url(std::string_view url);

// The Redis keys of one farm (several farms share a server under different prefixes).
struct QueueNames {
  std::string prefix = "kopt:";  // every key below starts with it
  std::string group = "workers";
  // The GPU model's lane (lane_for: "nvidia-h200.sm_90"): jobs for that model have a stream of their own,
  // which only its workers read. Empty: the shared stream (jobs any worker may run).
  std::string lane;
  std::string jobs_stream() const { return prefix + "jobs" + (lane.empty() ? "" : ":" + lane); }
  std::string results_stream() const { return prefix + "results"; }
  std::string job_key(std::string_view job_id) const { return prefix + "job:" + std::string(job_id); }
  std::string result_key(std::string_view job_id) const { return prefix + "result:" + std::string(job_id); }
  std::string reclaimed_counter() const { return prefix + "reclaimed"; }
  std::string workers_hash() const { return prefix + "workers"; }
};

struct Job {
  std::string id;  // the job's own id (e.g. a content hash of what it evaluates): results are keyed by it
  std::string payload;  // what the worker needs, opaque here (JSON text)
};

// A job handed to a consumer: its stream entry, and how many times it has been delivered (1 the first time).
struct Delivery {
  std::string entry;  // the stream entry id, e.g. "1733361234567-0"
  Job job;
  std::int64_t deliveries = 1;
};

// A result read back from the results stream, in the order jobs finished.
struct FinishedJob {
  std::string cursor;  // the results stream entry id: pass it to the next read_results
  std::string job_id;
  std::string result;
};

// What a worker says about itself when it joins (JobQueue::announce): where its evaluations run.
struct WorkerInfo {
  std::string host;
  std::string gpu;         // the device's name, "NVIDIA H200"
  std::string arch;        // "sm_90"
  std::string uuid;        // the device's UUID
  std::string driver;      // the CUDA driver API version, "13000"
  std::string started_at;  // ISO 8601, UTC
};

struct ConsumerStats {
  std::string name;
  std::int64_t pending = 0;        // entries it holds
  std::int64_t idle_ms = 0;        // since it last read or claimed
  std::optional<WorkerInfo> info;  // unset when it never announced itself
};

struct QueueStats {
  std::int64_t jobs = 0;                 // entries in the jobs stream (finished ones included until trimmed)
  std::int64_t waiting = 0;              // not yet delivered to any worker (the queue's depth)
  std::int64_t pending = 0;              // delivered and not yet finished (in flight)
  std::int64_t reclaimed = 0;            // jobs taken over from a worker that stopped, since the queue began
  std::int64_t results = 0;              // results recorded
  std::int64_t results_last_minute = 0;  // of them, recorded in the last 60 s (the server's clock)
  std::vector<ConsumerStats> consumers;
};

// The whole farm: the shared stream's stats with every announced lane's jobs and consumers added (`kopt farm
// status`). Errors as JobQueue::connect and stats.
Result<QueueStats> farm_stats(RedisEndpoint const& endpoint, QueueNames const& names);

// The lane of a GPU model and architecture: lower-case letters and digits, other runs of characters as
// one '-', then '.' and the architecture ("NVIDIA H200", "sm_90" -> "nvidia-h200.sm_90").
std::string lane_for(std::string_view gpu, std::string_view arch);

class JobQueue {
 public:
  // Connects (within `timeout`), authenticates, and creates the stream and the consumer group when they do
  // not exist. Error io_error with the endpoint (never the password) and Redis's message.
  static Result<JobQueue> connect(RedisEndpoint const& endpoint, QueueNames names,
                                  std::chrono::milliseconds timeout = std::chrono::seconds(5));
  JobQueue(JobQueue&& other) noexcept;
  JobQueue& operator=(JobQueue&& other) noexcept;
  JobQueue(JobQueue const&) = delete;
  JobQueue& operator=(JobQueue const&) = delete;
  ~JobQueue();

  QueueNames const& names() const noexcept;

  // Adds the job unless a job with its id was enqueued before (then false: nothing is added).
  Result<bool> enqueue(Job const& job);
  // enqueue() for every job, in one round trip to the server: how many were added.
  Result<std::size_t> enqueue_all(std::vector<Job> const& jobs);
  // A new job for `consumer`, waiting up to `block` (0: do not wait) for one; nullopt when none came.
  Result<std::optional<Delivery>> take(std::string const& consumer, std::chrono::milliseconds block);
  // Renews `consumer`'s lease on the entry (its idle time restarts). Error not_found when the entry is no
  // longer this consumer's (reclaimed by another after the lease ran out, or finished).
  Status refresh(std::string const& consumer, std::string const& entry);
  // Up to `count` entries idle for at least `min_idle`, now `consumer`'s, with their delivery counts.
  Result<std::vector<Delivery>> reclaim(std::string const& consumer, std::chrono::milliseconds min_idle,
                                        int count);
  // Records `result` for the delivery's job unless one is recorded already, publishes it on the results
  // stream when it is new, and acknowledges the entry. True when this call recorded the result.
  Result<bool> finish(Delivery const& delivery, std::string const& result);
  // The recorded result of a job, nullopt when there is none yet.
  Result<std::optional<std::string>> result(std::string const& job_id);
  // result() for every job, in one round trip.
  Result<std::vector<std::optional<std::string>>> results(std::vector<std::string> const& job_ids);
  // Results recorded after `cursor` ("0": from the first), up to `count`, waiting up to `block` for one.
  Result<std::vector<FinishedJob>> read_results(std::string const& cursor, int count,
                                                std::chrono::milliseconds block);
  // This lane's jobs and consumers; the results and the reclaimed count are the farm's (every lane's).
  Result<QueueStats> stats();
  // Records what `consumer` runs on (replacing what it said before); stats() shows it beside the consumer.
  Status announce(std::string const& consumer, WorkerInfo const& info);
  // What every worker of the farm (any lane) announced, by consumer name.
  Result<std::map<std::string, WorkerInfo, std::less<>>> announced();

  struct Impl;

 private:
  explicit JobQueue(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kopt::farm
