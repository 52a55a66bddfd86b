// run_worker: the farm worker's loop (kopt/farm_worker.hpp, docs/distributed.md).
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <utility>

#include "kopt/farm_worker.hpp"

namespace kopt::farm {

std::string JobRunner::final_verdict(Job const& job, std::int64_t deliveries) {
  return nlohmann::json{{"status", "runtime_error"},
                        {"job", job.id},
                        {"deliveries", deliveries},
                        {"message", "the evaluation was started " + std::to_string(deliveries) +
                                        " times and each time its worker stopped before it finished "
                                        "(killed, or its host lost): the candidate is taken to crash its "
                                        "evaluator"}}
      .dump();
}

namespace {

// Renews the lease on one delivery every lease / 3 from its own connection until finished; sets `cancelled`
// when the entry is no longer this consumer's (the lease ran out and another worker took the job over).
class LeaseKeeper {
 public:
  LeaseKeeper(JobQueue& heartbeat, WorkerOptions const& options, Delivery const& delivery,
              std::atomic<bool>& cancelled)
      : thread_([this, &heartbeat, &options, &delivery, &cancelled] {
          std::unique_lock lock(mutex_);
          while (!done_) {
            wake_.wait_for(lock, options.lease / 3, [this] { return done_; });
            if (done_) break;
            if (!heartbeat.refresh(options.consumer, delivery.entry)) {
              lost_ = true;
              cancelled = true;
              break;
            }
          }
        }) {}
  LeaseKeeper(LeaseKeeper const&) = delete;
  LeaseKeeper& operator=(LeaseKeeper const&) = delete;
  LeaseKeeper(LeaseKeeper&&) = delete;
  LeaseKeeper& operator=(LeaseKeeper&&) = delete;
  // Stops renewing; true when the lease was lost meanwhile.
  bool finish() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_all();
    thread_.join();
    return lost_;
  }
  ~LeaseKeeper() {
    if (thread_.joinable()) (void)finish();
  }

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  std::atomic<bool> lost_ = false;
  std::thread thread_;
};

}  // namespace

Result<WorkerReport> run_worker(RedisEndpoint const& endpoint, QueueNames const& names,
                                WorkerOptions const& options, JobRunner& runner,
                                std::atomic<bool> const& stop) {
  if (options.consumer.empty()) return make_error(ErrorCode::invalid_argument, "worker: no consumer name");
  if (options.lease.count() < 30) {
    return make_error(ErrorCode::invalid_argument, "worker: the lease must be at least 30 ms");
  }
  auto queue = JobQueue::connect(endpoint, names);
  if (!queue) return queue.error();
  auto heartbeat = JobQueue::connect(endpoint, names);
  if (!heartbeat) return heartbeat.error();

  WorkerReport report;
  auto idle_since = std::chrono::steady_clock::now();
  while (!stop) {
    if (options.max_jobs && report.ran + report.final_verdicts >= *options.max_jobs) break;
    // Jobs whose worker stopped come first: they have waited longest.
    std::optional<Delivery> delivery;
    auto reclaimed = queue->reclaim(options.consumer, options.lease, 1);
    if (!reclaimed) return reclaimed.error();
    if (!reclaimed->empty()) {
      delivery = std::move(reclaimed->front());
    } else {
      auto taken = queue->take(options.consumer, options.block);
      if (!taken) return taken.error();
      delivery = std::move(*taken);
    }
    if (!delivery) {
      if (options.idle_exit && std::chrono::steady_clock::now() - idle_since >= *options.idle_exit) break;
      continue;
    }
    if (delivery->deliveries > options.max_deliveries) {
      auto recorded = queue->finish(*delivery, runner.final_verdict(delivery->job, delivery->deliveries));
      if (!recorded) return recorded.error();
      ++report.final_verdicts;
      if (!*recorded) ++report.duplicates;
      idle_since = std::chrono::steady_clock::now();
      continue;
    }
    if (delivery->deliveries > 1) ++report.taken_over;
    std::atomic<bool> cancelled = false;
    std::string result;
    bool lost = false;
    {
      LeaseKeeper keeper(*heartbeat, options, *delivery, cancelled);
      result = runner.run(delivery->job, cancelled);
      lost = keeper.finish();
    }
    ++report.ran;
    idle_since = std::chrono::steady_clock::now();
    if (lost) {  // the job is another worker's now: its result, not this cut-short one, is the job's
      ++report.lost_leases;
      continue;
    }
    auto recorded = queue->finish(*delivery, result);
    if (!recorded) return recorded.error();
    if (!*recorded) ++report.duplicates;
    idle_since = std::chrono::steady_clock::now();
  }
  return report;
}

}  // namespace kopt::farm
