// `kopt optimize --queue` run as a user would, against a redis-server of its own and three simulated workers
// (threads running run_worker, each answering its jobs with the kopt.eval/1 document of a fake GPU that
// times the vector_add tuning space from a known landscape): the search keeps three candidates in flight,
// finds the landscape's best and confirms it; killed with SIGKILL while a batch is on the workers and then
// resumed, the run finishes with every evaluation made exactly once (the jobs of the batch in flight are
// found on the stream by their ids, not run again); `kopt bench --queue` tunes a suite task on the workers.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "farm/redis_server.hpp"
#include "kopt/eval_json.hpp"
#include "kopt/farm.hpp"
#include "kopt/farm_job.hpp"
#include "kopt/farm_worker.hpp"
#include "kopt/run_log.hpp"
#include "kopt/store.hpp"
#include "kopt/task.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/kopt_process.hpp"

namespace kopt::test {
namespace farm_optimize_command_test {

using std::chrono::milliseconds;

// What the simulated GPUs share: how often each job ran, and an optional hold: once `answer_before_hold`
// jobs have been answered, every further job waits until release() (a batch stuck on the workers).
struct FarmLedger {
  std::mutex mutex;
  std::condition_variable changed;
  std::map<std::string, int> runs;  // job id -> times evaluated
  std::size_t answered = 0;
  std::size_t held = 0;
  std::optional<std::size_t> answer_before_hold;
  bool released = false;

  void wait_if_held() {
    std::unique_lock lock(mutex);
    if (!answer_before_hold || answered < *answer_before_hold) return;
    ++held;
    changed.notify_all();
    changed.wait(lock, [&] { return released; });
  }
  void release() {
    std::lock_guard lock(mutex);
    released = true;
    changed.notify_all();
  }
};

// A fake GPU behind the farm: decodes the job, evaluates it with FakeCandidateEvaluator over the landscape
// (sizes, medians, reference times, as a worker's report has them) and answers kopt.eval/1.
class LandscapeRunner final : public farm::JobRunner {
 public:
  LandscapeRunner(FarmLedger& ledger, FakeFunction function, std::string name, int gpu)
      : ledger_(ledger), function_(std::move(function)), name_(std::move(name)), gpu_(gpu) {}
  std::string run(farm::Job const& job, std::atomic<bool> const& /*cancelled*/) override {
    ledger_.wait_if_held();
    auto decoded = farm::decode_job(job.payload);
    if (!decoded) return error(decoded.error().message);
    auto task = load_task(decoded->task_dir);
    if (!task) return error(task.error().message);
    FakeCandidateEvaluator gpu(function_);
    auto reports = gpu.evaluate(*task, {decoded->candidate}, decoded->tier);
    if (!reports) return error(reports.error().message);
    EvalReport report;
    report.task = task->name;
    report.task_dir = decoded->task_dir;
    report.tier = decoded->tier;
    report.seed = decoded->seed.value_or(0);
    report.device.name = "NVIDIA H200";
    report.candidates = std::move(*reports);
    for (CandidateReport& candidate : report.candidates)  // as kopt worker stamps its reports
      candidate.ran_on =
          EvaluationPlace{"sim", name_, gpu_, "GPU-sim-" + std::to_string(gpu_), "NVIDIA H200"};
    {
      std::lock_guard lock(ledger_.mutex);
      ++ledger_.runs[job.id];
      ++ledger_.answered;
    }
    return to_json(report).dump();
  }

 private:
  static std::string error(std::string const& message) {
    return nlohmann::json{{"schema", "kopt.farm_error/1"}, {"code", "invalid_spec"}, {"message", message}}
        .dump();
  }
  FarmLedger& ledger_;
  FakeFunction function_;
  std::string name_;
  int gpu_;
};

// Any configuration of any task: ok, a few percent apart by its knob values (eight timed sizes at most).
FakeResult any_configuration(std::map<std::string, std::string, std::less<>> const& knobs) {
  std::size_t const spread = std::hash<std::string>{}(nlohmann::json(knobs).dump()) % 17;
  double const candidate = 50.0 + static_cast<double>(spread);
  return FakeResult{CandidateStatus::ok, "", std::vector<double>(8, candidate),
                    std::vector<double>(8, 100.0)};
}

struct FarmOptimizeCommandTest : KoptProcessTest {
  void SetUp() override {
    KoptProcessTest::SetUp();
    if (IsSkipped()) return;
    if (auto reason = RedisServer::unavailable(); !reason.empty()) GTEST_SKIP() << reason;
    server.emplace(redis_dir.path());
    ASSERT_TRUE(server->start().ok());
  }
  void TearDown() override {
    stop = true;
    ledger.release();
    for (auto& worker : workers) worker.join();
  }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(server->endpoint().port); }
  // Joins `count` workers as `kopt worker` does: each announces an H200, then serves the H200 lane until
  // the test ends.
  void start_workers(int count, FakeFunction const& function = landscape) {
    farm::QueueNames lane;
    lane.lane = farm::lane_for("NVIDIA H200", "sm_90");
    auto queue = farm::JobQueue::connect(server->endpoint(), lane);
    ASSERT_TRUE(queue.ok()) << queue.error().message;
    for (int i = 0; i < count; ++i) {
      std::string const name = "sim:gpu" + std::to_string(i);
      ASSERT_TRUE(queue
                      ->announce(name, {"sim", "NVIDIA H200", "sm_90", "GPU-sim-" + std::to_string(i),
                                        "13000", "2026-12-05T00:00:00Z"})
                      .ok());
    }
    for (int i = 0; i < count; ++i) {
      workers.emplace_back([this, lane, function, i, name = "sim:gpu" + std::to_string(i)] {
        LandscapeRunner runner(ledger, function, name, i);
        farm::WorkerOptions options;
        options.consumer = name;
        options.block = milliseconds(50);
        EXPECT_TRUE(farm::run_worker(server->endpoint(), lane, options, runner, stop).ok());
      });
    }
  }
  std::string optimize_args(std::size_t budget) const {
    return "optimize examples/vector_add --from examples/vector_add/tunable/vector_add_tunable_kernel.cu "
           "--search mcts --seed 3 --budget " +
           std::to_string(budget) + " --store " + (dir.path() / "farm.db").string() + " --queue " + url() +
           " --json";
  }
  std::map<std::string, int> runs() {
    std::lock_guard lock(ledger.mutex);
    return ledger.runs;
  }
  TempDir redis_dir;
  std::optional<RedisServer> server;
  FarmLedger ledger;
  std::atomic<bool> stop = false;
  std::vector<std::thread> workers;
};

TEST_F(FarmOptimizeCommandTest, ASearchOnThreeWorkersFindsTheBestAndConfirmsIt) {
  start_workers(3);
  auto result = run("", optimize_args(15));
  ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
  auto doc = nlohmann::json::parse(result.out);
  EXPECT_EQ(doc["points"], 15);
  EXPECT_EQ(doc["concurrent_evaluations"], 3) << "one candidate in flight per announced worker";
  EXPECT_EQ(doc["best"]["confirmed_status"], "ok");
  EXPECT_EQ(doc["best"]["config"], "BLOCK=256;ITEMS=2;VEC=4");
  auto const ran = runs();
  EXPECT_EQ(ran.size(), 16u) << "15 screen jobs and the confirmation";
  for (auto const& [id, times] : ran) EXPECT_EQ(times, 1) << id;
  {
    // The store records which worker and GPU ran each evaluation.
    auto store = Store::open(dir.path() / "farm.db");
    ASSERT_TRUE(store) << store.error().message;
    auto history = store->load_run(RunId(doc["run"].get<std::int64_t>()));
    ASSERT_TRUE(history) << history.error().message;
    std::set<std::string> workers_seen;
    for (auto const& e : history->evaluations) {
      auto const place = place_from_json(e.evaluation.ran_on);
      ASSERT_TRUE(place) << e.evaluation.ran_on.dump();
      EXPECT_EQ(place->device_uuid, "GPU-sim-" + place->worker.substr(place->worker.size() - 1));
      workers_seen.insert(place->worker);
    }
    EXPECT_EQ(history->evaluations.size(), 16u);
    EXPECT_GE(workers_seen.size(), 2u) << "the batches were spread over the workers";
  }

  // The same search again (without the first run's search memory, so MCTS proposes the same points), for
  // people: the store answers every point, and the text says how many candidates were in flight.
  std::string text_args = optimize_args(15);
  text_args.replace(text_args.rfind(" --json"), 7, " --no-memory");
  auto text = run("", text_args);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("3 candidates in flight at once (one per GPU or farm worker)"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("15 from the store"), std::string::npos) << text.out;
}

// The medium size wants small blocks, the large one big blocks: the run's best configuration is a
// compromise, and the dispatch by size (docs/strategies.md) runs each size's best. A knob-less candidate
// (the dispatch) gets each size's best speedup here.
FakeResult sizes_disagree(std::map<std::string, std::string, std::less<>> const& knobs) {
  if (knobs.empty()) return FakeResult{CandidateStatus::ok, "", {100.0 / 4.0, 1000.0 / 4.0}, {100.0, 1000.0}};
  double const log_block = std::log2(static_cast<double>(test::knob(knobs, "BLOCK")));
  double const medium = 4.0 / (1.0 + std::abs(log_block - 6.0));  // best at BLOCK=64
  double const large = 4.0 / (1.0 + std::abs(log_block - 10.0));  // best at BLOCK=1024
  return FakeResult{CandidateStatus::ok, "", {100.0 / medium, 1000.0 / large}, {100.0, 1000.0}};
}

TEST_F(FarmOptimizeCommandTest, SizesThatWantDifferentConfigurationsEndWithAConfirmedDispatch) {
  start_workers(2, sizes_disagree);
  std::string args = optimize_args(60);
  args.replace(args.find("--search mcts"), 13, "--search exhaustive");
  auto result = run("", args);
  ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
  auto doc = nlohmann::json::parse(result.out);
  ASSERT_TRUE(doc.contains("dispatch")) << doc.dump(2);
  auto const& dispatch = doc["dispatch"];
  EXPECT_NE(dispatch["summary"].get<std::string>().find("BLOCK=64;"), std::string::npos) << dispatch.dump();
  EXPECT_NE(dispatch["summary"].get<std::string>().find("BLOCK=1024;"), std::string::npos) << dispatch.dump();
  EXPECT_TRUE(dispatch["best"].get<bool>()) << dispatch.dump();
  EXPECT_DOUBLE_EQ(dispatch["confirmed_speedup"].get<double>(), 4.0);
  EXPECT_NE(dispatch["run"], doc["run"]);

  // Without it, one configuration serves both sizes and no dispatch run is made.
  args += " --no-size-dispatch";
  auto without = run("", args);
  ASSERT_EQ(without.exit_code, 0) << without.err;
  EXPECT_FALSE(nlohmann::json::parse(without.out).contains("dispatch"));
}

TEST_F(FarmOptimizeCommandTest, ACoordinatorKilledMidBatchResumesWithoutLosingOrRepeatingAnEvaluation) {
  ledger.answer_before_hold = 9;  // three batches of three come back; the fourth stays on the workers
  start_workers(3);
  // `env ... timeout -s KILL 10 kopt ...`: SIGKILL after 10 s, long after the three batches came back.
  auto killed = run("timeout -s KILL 10", optimize_args(18));
  EXPECT_EQ(killed.exit_code, 137) << "killed while it waited for its fourth batch\n" << killed.err;
  {
    std::lock_guard lock(ledger.mutex);
    EXPECT_EQ(ledger.answered, 9u);
    EXPECT_EQ(ledger.held, 3u) << "the fourth batch was on the three workers when the coordinator died";
  }
  ledger.release();  // the workers finish the dead coordinator's batch; its results wait on the stream

  auto runs_listed = run("", "runs --json --store " + (dir.path() / "farm.db").string());
  ASSERT_EQ(runs_listed.exit_code, 0) << runs_listed.err;
  auto const listed = nlohmann::json::parse(runs_listed.out);
  std::int64_t run_id = 0;
  for (auto const& r : listed["runs"]) run_id = r["id"].get<std::int64_t>();
  ASSERT_GT(run_id, 0) << runs_listed.out;

  auto resumed = run("", "optimize --resume " + std::to_string(run_id) + " --store " +
                             (dir.path() / "farm.db").string() + " --queue " + url() + " --json");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err << resumed.out;
  auto doc = nlohmann::json::parse(resumed.out);
  EXPECT_EQ(doc["points"], 18);
  EXPECT_EQ(doc["best"]["confirmed_status"], "ok");
  auto const ran = runs();
  EXPECT_EQ(ran.size(), 19u) << "18 screen jobs and one confirmation, each made once";
  for (auto const& [id, times] : ran) EXPECT_EQ(times, 1) << id << " was evaluated more than once";
}

// `kopt bench` on the farm: the built-in proposer tunes a suite task's strategies on the workers and the
// confirmation comes back from them too.
TEST_F(FarmOptimizeCommandTest, ABenchOfASuiteTaskRunsOnTheWorkers) {
  start_workers(2, any_configuration);
  auto result = run("", "bench suites/algebra/vector_add-f32 --budget 4 --json --store " +
                            (dir.path() / "bench.db").string() + " --queue " + url());
  ASSERT_EQ(result.exit_code, 0) << result.err << result.out;
  auto doc = nlohmann::json::parse(result.out);
  EXPECT_EQ(doc["schema"], "kopt.bench/1");
  ASSERT_FALSE(doc["rows"].empty()) << doc.dump(2);
  for (auto const& row : doc["rows"]) {
    EXPECT_EQ(row["status"], "ok") << row.dump();
    EXPECT_TRUE(row["strategy"].is_string() && !row["strategy"].get<std::string>().empty()) << row.dump();
    EXPECT_GT(row["speedup"].get<double>(), 1.0) << "the workers' timings reached the table: " << row.dump();
  }
  auto const ran = runs();
  EXPECT_GE(ran.size(), 5u) << "four screen jobs and a confirmation at least";
  for (auto const& [id, times] : ran) EXPECT_EQ(times, 1) << id;
}

}  // namespace farm_optimize_command_test
}  // namespace kopt::test
