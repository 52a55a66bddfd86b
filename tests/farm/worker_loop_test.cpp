// run_worker against a real redis-server (redis_server.hpp) with a fake runner whose payload says what the
// job does: "echo:TEXT" returns TEXT, "stall:CONSUMER" waits until cancelled on that consumer and returns
// "done by <consumer>" on any other, "block" waits until cancelled, "die" ends the worker's process. Workers
// run as threads, or as forked processes where the test kills them (SIGKILL mid-job) or the job kills them.
// Checked: every job recorded exactly once across several workers; a worker killed mid-job costs one lease,
// after which another takes the job over and records it once; a job that kills every worker it reaches gets
// its final verdict after max_deliveries; a worker whose lease is taken over is cancelled and its late result
// dropped.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "kopt/farm_worker.hpp"
#include "redis_queue_test.hpp"

namespace kopt::farm {
namespace worker_loop_test {

using std::chrono::milliseconds;

class FakeRunner : public JobRunner {
 public:
  explicit FakeRunner(std::string consumer = "") : consumer_(std::move(consumer)) {}
  std::string run(Job const& job, std::atomic<bool> const& cancelled) override {
    std::string const& p = job.payload;
    if (p.starts_with("echo:")) return p.substr(5);
    if (p.starts_with("stall:")) {
      if (p.substr(6) != consumer_) return "done by " + consumer_;
      while (!cancelled) std::this_thread::sleep_for(milliseconds(5));
      return "cancelled";
    }
    if (p == "block") {
      while (!cancelled) std::this_thread::sleep_for(milliseconds(5));
      return "late";
    }
    if (p == "die") ::_exit(3);  // the evaluation takes the worker's process down with it
    return "unknown payload";
  }

 private:
  std::string consumer_;
};

class WorkerLoopTest : public test::RedisQueueTest {
 protected:
  void SetUp() override {
    test::RedisQueueTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    queue_.emplace(connect_queue());
  }
  WorkerOptions options(std::string consumer) const {
    WorkerOptions o;
    o.consumer = std::move(consumer);
    o.lease = milliseconds(400);
    o.block = milliseconds(50);
    o.idle_exit = milliseconds(1500);
    return o;
  }
  // A worker in a forked process, running until its job ends it or the test kills it.
  pid_t fork_worker(WorkerOptions const& o) {
    pid_t const pid = ::fork();
    if (pid == 0) {
      FakeRunner runner(o.consumer);
      std::atomic<bool> stop = false;
      auto report = run_worker(server_->endpoint(), QueueNames{}, o, runner, stop);
      ::_exit(report.ok() ? 0 : 1);
    }
    return pid;
  }
  // Waits until `consumer` holds a job (the job is running there).
  bool wait_until_holding(std::string const& consumer) {
    auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      auto stats = queue_->stats();
      if (stats) {
        for (auto const& c : stats->consumers)
          if (c.name == consumer && c.pending > 0) return true;
      }
      std::this_thread::sleep_for(milliseconds(10));
    }
    return false;
  }
  std::optional<JobQueue> queue_;
};

TEST_F(WorkerLoopTest, ThreeWorkersRecordEveryJobExactlyOnce) {
  constexpr int kJobs = 60;
  for (int i = 0; i < kJobs; ++i)
    ASSERT_TRUE(*queue_->enqueue({"job-" + std::to_string(i), "echo:r" + std::to_string(i)}));
  std::vector<std::thread> workers;
  workers.reserve(3);
  std::vector<WorkerReport> reports(3);
  std::atomic<bool> stop = false;
  for (int w = 0; w < 3; ++w) {
    workers.emplace_back([&, w] {
      FakeRunner runner;
      auto report =
          run_worker(server_->endpoint(), QueueNames{}, options("gpu" + std::to_string(w)), runner, stop);
      ASSERT_TRUE(report.ok()) << report.error().message;
      reports[w] = *report;
    });
  }
  for (auto& t : workers) t.join();
  std::size_t ran = 0;
  for (auto const& r : reports) {
    ran += r.ran;
    EXPECT_EQ(r.duplicates, 0u);
  }
  EXPECT_EQ(ran, static_cast<std::size_t>(kJobs));
  for (int i = 0; i < kJobs; ++i)
    EXPECT_EQ(**queue_->result("job-" + std::to_string(i)), "r" + std::to_string(i));
  EXPECT_EQ(queue_->read_results("0", 2 * kJobs, milliseconds(0))->size(), static_cast<std::size_t>(kJobs));
  EXPECT_EQ(queue_->stats()->pending, 0);
}

TEST_F(WorkerLoopTest, AWorkerKilledMidJobCostsOneLeaseThenAnotherRecordsTheJobOnce) {
  ASSERT_TRUE(*queue_->enqueue({"job-a", "stall:gpu0"}));
  pid_t const victim = fork_worker(options("gpu0"));
  ASSERT_GT(victim, 0);
  ASSERT_TRUE(wait_until_holding("gpu0"));
  ASSERT_EQ(::kill(victim, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(victim, &status, 0), victim);
  EXPECT_TRUE(WIFSIGNALED(status));

  FakeRunner runner("gpu1");
  std::atomic<bool> stop = false;
  WorkerOptions o = options("gpu1");
  o.max_jobs = 1;
  auto const started = std::chrono::steady_clock::now();
  auto report = run_worker(server_->endpoint(), QueueNames{}, o, runner, stop);
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->taken_over, 1u);
  EXPECT_LT(std::chrono::steady_clock::now() - started, o.lease + std::chrono::seconds(2))
      << "one lease, not more";
  EXPECT_EQ(**queue_->result("job-a"), "done by gpu1") << "recorded once, by the survivor";
  EXPECT_EQ(queue_->read_results("0", 10, milliseconds(0))->size(), 1u);
}

TEST_F(WorkerLoopTest, AJobThatKillsEveryWorkerGetsItsFinalVerdictAfterMaxDeliveries) {
  ASSERT_TRUE(*queue_->enqueue({"poison", "die"}));
  WorkerOptions o = options("gpu0");
  o.max_deliveries = 2;
  for (int attempt = 0; attempt < 2; ++attempt) {  // two workers, each ended by the job
    pid_t const pid = fork_worker(o);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 3) << "the job ended the worker";
    std::this_thread::sleep_for(o.lease + milliseconds(50));
  }
  FakeRunner runner;
  std::atomic<bool> stop = false;
  auto report = run_worker(server_->endpoint(), QueueNames{}, o, runner, stop);
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_EQ(report->final_verdicts, 1u);
  EXPECT_EQ(report->ran, 0u) << "not run a third time";
  auto verdict = nlohmann::json::parse(**queue_->result("poison"));
  EXPECT_EQ(verdict["status"], "runtime_error");
  EXPECT_EQ(verdict["deliveries"], 3);
}

TEST_F(WorkerLoopTest, AStopDrainsTheRunningJobAndTakesNoOther) {
  ASSERT_TRUE(*queue_->enqueue({"job-a", "gated"}));
  ASSERT_TRUE(*queue_->enqueue({"job-b", "gated"}));
  std::atomic<bool> stop = false;
  std::atomic<bool> release = false;
  class Gated : public JobRunner {
   public:
    explicit Gated(std::atomic<bool>& gate) : gate_(gate) {}
    std::string run(Job const& job, std::atomic<bool> const& /*cancelled*/) override {
      while (!gate_) std::this_thread::sleep_for(milliseconds(5));
      return "finished " + job.id;
    }

   private:
    std::atomic<bool>& gate_;
  } runner(release);
  std::thread worker([&] {
    auto r = run_worker(server_->endpoint(), QueueNames{}, options("gpu0"), runner, stop);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->ran, 1u);
  });
  ASSERT_TRUE(wait_until_holding("gpu0"));
  stop = true;  // while job-a runs
  std::this_thread::sleep_for(milliseconds(100));
  release = true;
  worker.join();
  EXPECT_EQ(**queue_->result("job-a"), "finished job-a") << "the running job was finished, not cut short";
  EXPECT_FALSE(queue_->result("job-b")->has_value()) << "no new job after the stop";
}

TEST_F(WorkerLoopTest, AWorkerWhoseJobIsTakenOverIsCancelledAndItsLateResultDropped) {
  ASSERT_TRUE(*queue_->enqueue({"job-a", "block"}));
  WorkerReport report;
  std::thread worker([&] {
    FakeRunner runner;
    std::atomic<bool> stop = false;
    WorkerOptions o = options("gpu0");
    o.max_jobs = 1;
    auto r = run_worker(server_->endpoint(), QueueNames{}, o, runner, stop);
    ASSERT_TRUE(r.ok()) << r.error().message;
    report = *r;
  });
  ASSERT_TRUE(wait_until_holding("gpu0"));
  auto stolen = queue_->reclaim("gpu1", milliseconds(0), 1);  // as if gpu0's lease had run out
  ASSERT_TRUE(stolen.ok() && stolen->size() == 1u);
  ASSERT_TRUE(*queue_->finish(stolen->front(), "from gpu1"));
  worker.join();
  EXPECT_EQ(report.lost_leases, 1u);
  EXPECT_EQ(report.duplicates, 0u) << "a cut-short result is not even offered";
  EXPECT_EQ(**queue_->result("job-a"), "from gpu1");
}

}  // namespace worker_loop_test
}  // namespace kopt::farm
