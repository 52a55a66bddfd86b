// FarmCandidateEvaluator against a loopback redis-server and simulated workers (threads running run_worker
// with a runner that answers each job with a kopt.eval/1 document of its own making): a batch shared by
// two workers comes back as one report per candidate, in order; the target is the announced GPU model; a farm
// with no announced worker, or with two GPU models and none chosen, is refused; a run that chooses a model
// sends its jobs to that model's lane only; a job a worker could not run is an error naming the candidate.
#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "farm/redis_queue_test.hpp"
#include "kopt/eval_json.hpp"
#include "kopt/farm_job.hpp"
#include "kopt/farm_worker.hpp"
#include "kopt/optimize_farm.hpp"
#include "kopt/task.hpp"

namespace kopt {
namespace farm_candidate_evaluator_test {

using std::chrono::milliseconds;

// Answers each job with a kopt.eval/1 document: status ok, a speedup equal to the source's length (so the
// test can tell the candidates apart), or a kopt.farm_error/1 for a source that says "unrunnable".
class FakeEvaluation : public farm::JobRunner {
 public:
  std::string run(farm::Job const& job, std::atomic<bool> const& /*cancelled*/) override {
    auto decoded = farm::decode_job(job.payload);
    if (!decoded || decoded->candidate.source == "unrunnable")
      return nlohmann::json{
          {"schema", "kopt.farm_error/1"}, {"code", "not_found"}, {"message", "no such task"}}
          .dump();
    EvalReport report;
    report.task = decoded->task_dir.filename().string();
    report.task_dir = decoded->task_dir;
    report.tier = decoded->tier;
    report.seed = decoded->seed.value_or(0);
    CandidateReport candidate;
    candidate.name = "as the worker saw it";
    candidate.geomean_speedup = static_cast<double>(decoded->candidate.source.size());
    report.candidates.push_back(candidate);
    return to_json(report).dump();
  }
};

class FarmCandidateEvaluatorTest : public test::RedisQueueTest {
 protected:
  // What `kopt worker` says when it joins: the coordinator reads the farm's models from it.
  void announce(std::string const& name, std::string const& gpu) {
    auto q = connect_queue();
    ASSERT_TRUE(q.announce(name, {"host", gpu, "sm_90", "GPU-" + name, "13000", "now"}).ok());
  }
  static farm::QueueNames h200_lane() {
    farm::QueueNames names;
    names.lane = farm::lane_for("NVIDIA H200", "sm_90");
    return names;
  }
  TaskSpec task() {
    auto t = load_task(std::filesystem::path(KOPT_SOURCE_DIR) / "examples" / "vector_add");
    EXPECT_TRUE(t.ok()) << t.error().message;
    return *t;
  }
};

TEST_F(FarmCandidateEvaluatorTest, ABatchComesBackOneReportPerCandidateInOrder) {
  announce("gpu0", "NVIDIA H200");
  announce("gpu1", "NVIDIA H200");
  auto evaluator =
      FarmCandidateEvaluator::create(server_->endpoint(), farm::QueueNames{}, {7, milliseconds(20000)});
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;
  EXPECT_EQ((*evaluator)->target().device_name, "NVIDIA H200");
  EXPECT_EQ((*evaluator)->target().arch, "sm_90");

  std::atomic<bool> stop = false;
  std::vector<std::thread> workers;
  workers.reserve(2);
  for (auto const* name : {"gpu0", "gpu1"}) {
    workers.emplace_back([&, name] {
      FakeEvaluation runner;
      farm::WorkerOptions o;
      o.consumer = name;
      o.block = milliseconds(50);
      ASSERT_TRUE(farm::run_worker(server_->endpoint(), h200_lane(), o, runner, stop).ok());
    });
  }
  std::vector<CandidateInput> batch;
  for (int i = 1; i <= 6; ++i) batch.push_back({"c" + std::to_string(i), std::string(i, 'x'), {}, {}, {}});
  auto reports = (*evaluator)->evaluate(task(), batch, TimingTier::screen);
  stop = true;
  for (auto& t : workers) t.join();
  ASSERT_TRUE(reports.ok()) << reports.error().message;
  ASSERT_EQ(reports->size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ((*reports)[i].name, batch[i].name) << "the candidate's own name, in the batch's order";
    EXPECT_DOUBLE_EQ((*reports)[i].geomean_speedup.value_or(0), static_cast<double>(i + 1));
  }
}

TEST_F(FarmCandidateEvaluatorTest, AFarmWithoutWorkersOrWithTwoModelsIsRefused) {
  auto none = FarmCandidateEvaluator::create(server_->endpoint(), farm::QueueNames{}, {});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, ErrorCode::not_found);
  announce("gpu0", "NVIDIA H200");
  announce("gpu1", "NVIDIA H100 80GB HBM3");
  auto mixed = FarmCandidateEvaluator::create(server_->endpoint(), farm::QueueNames{}, {});
  ASSERT_FALSE(mixed.ok());
  EXPECT_EQ(mixed.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(mixed.error().message.find("NVIDIA H100 80GB HBM3"), std::string::npos) << mixed.error().message;
  EXPECT_NE(mixed.error().message.find("--queue-gpu"), std::string::npos) << mixed.error().message;
  FarmEvaluatorOptions absent;
  absent.gpu_model = "NVIDIA B200";
  auto missing = FarmCandidateEvaluator::create(server_->endpoint(), farm::QueueNames{}, absent);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  EXPECT_NE(missing.error().message.find("NVIDIA H200 (sm_90): 1 worker"), std::string::npos)
      << missing.error().message;
}

TEST(FarmLane, IsTheModelInLowerCaseWithItsArchitecture) {
  EXPECT_EQ(farm::lane_for("NVIDIA H200", "sm_90"), "nvidia-h200.sm_90");
  EXPECT_EQ(farm::lane_for("NVIDIA H100 80GB HBM3", "sm_90"), "nvidia-h100-80gb-hbm3.sm_90");
  EXPECT_EQ(farm::lane_for("  A100-SXM4 (40GB) ", "sm_80"), "a100-sxm4-40gb.sm_80");
  farm::QueueNames names;
  EXPECT_EQ(names.jobs_stream(), "kopt:jobs");
  names.lane = "nvidia-h200.sm_90";
  EXPECT_EQ(names.jobs_stream(), "kopt:jobs:nvidia-h200.sm_90");
}

// A farm of two models: the run that asks for one sends its jobs to that model's lane only, and only that
// model's workers count as its concurrency.
TEST_F(FarmCandidateEvaluatorTest, JobsGoToTheLaneOfTheModelTheRunAskedFor) {
  announce("h200-a", "NVIDIA H200");
  announce("h200-b", "NVIDIA H200");
  announce("h100-a", "NVIDIA H100 80GB HBM3");
  FarmEvaluatorOptions options{3, milliseconds(20000), "NVIDIA H100 80GB HBM3"};
  auto evaluator = FarmCandidateEvaluator::create(server_->endpoint(), farm::QueueNames{}, options);
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;
  EXPECT_EQ((*evaluator)->target().device_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ((*evaluator)->concurrency(), 1u);

  std::atomic<bool> stop = false;
  std::atomic<int> h200_jobs = 0;
  std::atomic<int> h100_jobs = 0;
  class Counting : public FakeEvaluation {
   public:
    explicit Counting(std::atomic<int>& count) : count_(count) {}
    std::string run(farm::Job const& job, std::atomic<bool> const& cancelled) override {
      ++count_;
      return FakeEvaluation::run(job, cancelled);
    }

   private:
    std::atomic<int>& count_;
  };
  auto serve = [&](std::string const& name, std::string const& gpu, std::atomic<int>& count) {
    return std::thread([&, name, gpu] {
      Counting runner(count);
      farm::WorkerOptions o;
      o.consumer = name;
      o.block = milliseconds(50);
      farm::QueueNames lane;
      lane.lane = farm::lane_for(gpu, "sm_90");
      ASSERT_TRUE(farm::run_worker(server_->endpoint(), lane, o, runner, stop).ok());
    });
  };
  std::thread h200 = serve("h200-a", "NVIDIA H200", h200_jobs);
  std::thread h100 = serve("h100-a", "NVIDIA H100 80GB HBM3", h100_jobs);
  std::vector<CandidateInput> batch;
  for (int i = 1; i <= 4; ++i) batch.push_back({"c" + std::to_string(i), std::string(i, 'y'), {}, {}, {}});
  auto reports = (*evaluator)->evaluate(task(), batch, TimingTier::screen);
  stop = true;
  h200.join();
  h100.join();
  ASSERT_TRUE(reports.ok()) << reports.error().message;
  EXPECT_EQ(reports->size(), 4u);
  EXPECT_EQ(h100_jobs, 4);
  EXPECT_EQ(h200_jobs, 0) << "an H200 never sees the jobs of a run that asked for H100s";
}

TEST_F(FarmCandidateEvaluatorTest, AJobAWorkerCouldNotRunNamesItsCandidate) {
  announce("gpu0", "NVIDIA H200");
  auto evaluator =
      FarmCandidateEvaluator::create(server_->endpoint(), farm::QueueNames{}, {1, milliseconds(20000)});
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;
  std::atomic<bool> stop = false;
  std::thread worker([&] {
    FakeEvaluation runner;
    farm::WorkerOptions o;
    o.consumer = "gpu0";
    o.block = milliseconds(50);
    ASSERT_TRUE(farm::run_worker(server_->endpoint(), h200_lane(), o, runner, stop).ok());
  });
  auto reports = (*evaluator)->evaluate(task(), {{"broken", "unrunnable", {}, {}, {}}}, TimingTier::screen);
  stop = true;
  worker.join();
  ASSERT_FALSE(reports.ok());
  EXPECT_NE(reports.error().message.find("'broken'"), std::string::npos) << reports.error().message;
  EXPECT_NE(reports.error().message.find("no such task"), std::string::npos) << reports.error().message;
}

}  // namespace farm_candidate_evaluator_test
}  // namespace kopt
