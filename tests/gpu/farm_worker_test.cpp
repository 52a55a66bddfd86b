// `kopt worker` on the GPU (docs/distributed.md): the real program evaluates farm jobs against a
// redis-server on loopback. An honest candidate's job gets an ok kopt.eval/1 result, a wrong one's
// wrong_output; a worker killed with SIGKILL in the middle of a job costs one lease, after which a second
// worker takes the job over and its result is recorded once. Without a GPU, the kopt executable or
// redis-server (scripts/stage-gpu.sh carries one to a GPU machine), the tests report SKIPPED.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "farm/redis_server.hpp"
#include "gpu_test_support.hpp"
#include "kopt/farm.hpp"
#include "kopt/farm_job.hpp"
#include "kopt/report.hpp"
#include "support/temp_dir.hpp"

namespace kopt::testing {
namespace farm_worker_test {

using std::chrono::milliseconds;

std::filesystem::path kopt_program() {
  if (char const* worker = std::getenv("KOPT_WORKER"); worker != nullptr && *worker != '\0') {
    auto beside = std::filesystem::path(worker).parent_path() / "kopt";
    if (std::filesystem::exists(beside)) return beside;
  }
  return std::filesystem::path(KOPT_BINARY_DIR) / "bin" / "kopt";
}

farm::EvaluationJob job_for(std::string name, std::string source) {
  farm::EvaluationJob job;
  job.task_dir = source_path("examples/vector_add");
  job.candidate.name = std::move(name);
  job.candidate.source = std::move(source);
  job.tier = TimingTier::screen;
  job.seed = 20261205;
  return job;
}

constexpr char const* kZeros = R"(
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = 0.0f;  // skips the work
}
)";

class FarmWorkerGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kopt_program())) GTEST_SKIP() << "no kopt executable at " << kopt_program();
    if (auto reason = test::RedisServer::unavailable(); !reason.empty()) GTEST_SKIP() << reason;
    auto evaluator = Evaluator::create(gpu_test_options());
    if (gpu_missing(evaluator)) GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
    ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;
    server_.emplace(dir_.path());
    ASSERT_TRUE(server_->start().ok());
    // `kopt worker` serves the lane of its GPU's model: the jobs are queued there.
    farm::QueueNames lane;
    lane.lane = farm::lane_for((*evaluator)->device().name, (*evaluator)->device().arch());
    auto q = farm::JobQueue::connect(server_->endpoint(), lane);
    ASSERT_TRUE(q.ok()) << q.error().message;
    queue_.emplace(std::move(*q));
  }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(server_->endpoint().port); }
  // `kopt worker` as a child process with these extra arguments; its pid.
  pid_t start_worker(std::string const& name, std::string const& extra) {
    std::string const command = kopt_program().string() + " worker --queue " + url() + " --name " + name +
                                " " + extra + " > " + (dir_.path() / (name + ".out")).string() + " 2> " +
                                (dir_.path() / (name + ".err")).string();
    pid_t const pid = ::fork();
    if (pid == 0) {
      ::execl("/bin/sh", "sh", "-c", ("exec " + command).c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    return pid;
  }
  int wait_for(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  }
  std::string status_of(std::string const& job_id) {
    auto result = queue_->result(job_id);
    if (!result.ok() || !result->has_value()) return "(no result)";
    auto report = eval_report_from_json(nlohmann::json::parse(**result, nullptr, false));
    if (!report.ok() || report->candidates.empty()) return "(not kopt.eval/1: " + **result + ")";
    return std::string(to_string(report->candidates.front().status));
  }
  test::TempDir dir_;
  std::optional<test::RedisServer> server_;
  std::optional<farm::JobQueue> queue_;
};

TEST_F(FarmWorkerGpuTest, EvaluatesJobsAndRecordsTheirVerdicts) {
  auto honest = farm::to_queue_job(job_for(
      "float4", read_text(source_path("examples/vector_add/candidates/vector_add_float4_kernel.cu"))));
  auto zeros = farm::to_queue_job(job_for("zeros", kZeros));
  ASSERT_TRUE(*queue_->enqueue(honest));
  ASSERT_TRUE(*queue_->enqueue(zeros));
  pid_t const worker = start_worker("gpu-a", "--gpu 0 --idle-exit 3 --json");
  EXPECT_EQ(wait_for(worker), 0) << read_text(dir_.path() / "gpu-a.err");
  EXPECT_EQ(status_of(honest.id), "ok");
  EXPECT_EQ(status_of(zeros.id), "wrong_output");
  auto summary = nlohmann::json::parse(read_text(dir_.path() / "gpu-a.out"), nullptr, false);
  EXPECT_EQ(summary["ran"], 2) << summary.dump();
}

TEST_F(FarmWorkerGpuTest, AWorkerKilledMidJobCostsOneLease) {
  // Many confirm-tier samples keep the job busy long enough to kill the worker in the middle of it.
  auto job =
      job_for("float4", read_text(source_path("examples/vector_add/candidates/vector_add_float4_kernel.cu")));
  job.tier = TimingTier::confirm;
  auto queued = farm::to_queue_job(job);
  ASSERT_TRUE(*queue_->enqueue(queued));
  pid_t const victim = start_worker("gpu-victim", "--gpu 0 --lease 2");
  auto const deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool holding = false;
  while (!holding && std::chrono::steady_clock::now() < deadline) {
    auto stats = queue_->stats();
    ASSERT_TRUE(stats.ok()) << stats.error().message;
    for (auto const& c : stats->consumers) holding = holding || (c.name == "gpu-victim" && c.pending > 0);
    std::this_thread::sleep_for(milliseconds(20));
  }
  ASSERT_TRUE(holding) << read_text(dir_.path() / "gpu-victim.err");
  ::kill(victim, SIGKILL);
  (void)wait_for(victim);
  auto const killed_at = std::chrono::steady_clock::now();
  pid_t const survivor = start_worker("gpu-survivor", "--gpu 0 --lease 2 --idle-exit 5 --json");
  EXPECT_EQ(wait_for(survivor), 0) << read_text(dir_.path() / "gpu-survivor.err");
  EXPECT_EQ(status_of(queued.id), "ok");
  auto summary = nlohmann::json::parse(read_text(dir_.path() / "gpu-survivor.out"), nullptr, false);
  EXPECT_EQ(summary["taken_over"], 1) << summary.dump();
  EXPECT_EQ(queue_->read_results("0", 10, milliseconds(0))->size(), 1u) << "recorded once";
  // One lease (2 s) plus the evaluation and the idle exit (5 s), not the job's whole run twice over.
  EXPECT_LT(std::chrono::steady_clock::now() - killed_at, std::chrono::seconds(60));
}

}  // namespace farm_worker_test
}  // namespace kopt::testing
