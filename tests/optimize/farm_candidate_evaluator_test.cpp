// FarmCandidateEvaluator against a loopback redis-server and simulated workers (threads running run_worker
// with a runner that answers each job with a kopt.eval/1 document of its own making): a batch shared by
// two workers comes back as one report per candidate, in order; the target is the announced GPU model; a farm
// with no announced worker, or with two GPU models, is refused; a job a worker could not run is an error
// naming the candidate.
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
namespace {

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
  void announce(std::string const& name, std::string const& gpu) {
    auto q = connect_queue();
    ASSERT_TRUE(*q.enqueue({"warm-up-" + name, "echo"}));  // a consumer exists once it has read
    auto taken = q.take(name, milliseconds(0));
    ASSERT_TRUE(taken.ok() && taken->has_value());
    ASSERT_TRUE(*q.finish(**taken, "-"));
    ASSERT_TRUE(q.announce(name, {"host", gpu, "sm_90", "GPU-" + name, "13000", "now"}).ok());
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
      ASSERT_TRUE(farm::run_worker(server_->endpoint(), farm::QueueNames{}, o, runner, stop).ok());
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
    ASSERT_TRUE(farm::run_worker(server_->endpoint(), farm::QueueNames{}, o, runner, stop).ok());
  });
  auto reports = (*evaluator)->evaluate(task(), {{"broken", "unrunnable", {}, {}, {}}}, TimingTier::screen);
  stop = true;
  worker.join();
  ASSERT_FALSE(reports.ok());
  EXPECT_NE(reports.error().message.find("'broken'"), std::string::npos) << reports.error().message;
  EXPECT_NE(reports.error().message.find("no such task"), std::string::npos) << reports.error().message;
}

}  // namespace
}  // namespace kopt
