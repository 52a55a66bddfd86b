// `kopt farm status` run as a user would, against a redis-server of its own on loopback: the table and the
// kopt.farm_status/1 document say what the queue holds (jobs waiting, in flight, taken over; results;
// workers), the password given in KOPT_QUEUE_PASSWORD is used and never printed, and a missing queue, a bad
// URL and an unreachable server end with the exit codes docs/cli.md gives; `kopt optimize --queue` and `kopt
// bench --queue` on a farm that no worker has joined say so before they record anything.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "farm/redis_server.hpp"
#include "kopt/farm.hpp"
#include "support/kopt_process.hpp"
#include "support/temp_dir.hpp"

namespace kopt::test {
namespace farm_status_command_test {

using std::chrono::milliseconds;

struct FarmStatusCommandTest : KoptProcessTest {
  void SetUp() override {
    KoptProcessTest::SetUp();
    if (IsSkipped()) return;
    if (auto reason = RedisServer::unavailable(); !reason.empty()) GTEST_SKIP() << reason;
    server.emplace(redis_dir.path(), std::vector<std::string>{"--requirepass", "farm-pw-42"});
    ASSERT_TRUE(server->start().ok());
  }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(server->endpoint().port); }
  TempDir redis_dir;
  std::optional<RedisServer> server;
};

TEST_F(FarmStatusCommandTest, SaysWhatTheQueueHoldsAndNeverPrintsThePassword) {
  farm::RedisEndpoint endpoint = server->endpoint();
  endpoint.password = "farm-pw-42";
  auto queue = farm::JobQueue::connect(endpoint, farm::QueueNames{});
  ASSERT_TRUE(queue.ok()) << queue.error().message;
  for (auto id : {"a", "b", "c"}) ASSERT_TRUE(*queue->enqueue({id, "p"}));
  auto taken = queue->take("host1:gpu0", milliseconds(0));
  ASSERT_TRUE(taken.ok() && taken->has_value());
  ASSERT_TRUE(*queue->finish(**taken, "ok"));
  ASSERT_TRUE(queue->take("host1:gpu1", milliseconds(0))->has_value());
  ASSERT_TRUE(queue->announce("host1:gpu1", {"host1", "NVIDIA H200", "sm_90", "GPU-1", "13000", "now"}).ok());

  auto text = run("KOPT_QUEUE_PASSWORD=farm-pw-42", "farm status --queue " + url());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("1 waiting for a worker, 1 in flight, 0 taken over"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("1 recorded, 1 in the last minute"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("host1:gpu0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("host1:gpu1"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("NVIDIA H200 (sm_90, driver 13000)"), std::string::npos) << text.out;

  auto json = run("KOPT_QUEUE=" + url() + " KOPT_QUEUE_PASSWORD=farm-pw-42", "farm status --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  auto doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc["schema"], "kopt.farm_status/1");
  EXPECT_EQ(doc["jobs"]["waiting"], 1);
  EXPECT_EQ(doc["jobs"]["in_flight"], 1);
  EXPECT_EQ(doc["results"]["recorded"], 1);
  EXPECT_EQ(doc["workers"].size(), 2u);
  int announced = 0;
  for (auto const& w : doc["workers"]) announced += w["runs_on"].is_null() ? 0 : 1;
  EXPECT_EQ(announced, 1);
  for (auto const* out : {&text.out, &text.err, &json.out, &json.err})
    EXPECT_EQ(out->find("farm-pw-42"), std::string::npos) << "the password was printed";
}

TEST_F(FarmStatusCommandTest, ExitCodesSayWhatWentWrong) {
  auto no_queue = run("", "farm status");
  EXPECT_EQ(no_queue.exit_code, 2);
  EXPECT_NE(no_queue.err.find("KOPT_QUEUE"), std::string::npos) << no_queue.err;
  auto bad_url = run("", "farm status --queue rediss://host");
  EXPECT_EQ(bad_url.exit_code, 2);
  EXPECT_NE(bad_url.err.find("TLS"), std::string::npos) << bad_url.err;
  auto wrong_password = run("KOPT_QUEUE_PASSWORD=not-it", "farm status --queue " + url());
  EXPECT_EQ(wrong_password.exit_code, 3) << wrong_password.err;
  EXPECT_EQ(wrong_password.err.find("not-it"), std::string::npos);
  auto unreachable =
      run("", "farm status --json --queue redis://127.0.0.1:" + std::to_string(free_loopback_port()));
  EXPECT_EQ(unreachable.exit_code, 3);
  EXPECT_TRUE(nlohmann::json::accept(unreachable.out)) << "--json errors are JSON too: " << unreachable.out;
}

TEST_F(FarmStatusCommandTest, OptimizeOnAFarmWithoutWorkersSaysSoAndLeavesNoStore) {
  std::string const store = (dir.path() / "farm.db").string();
  auto lonely =
      run("KOPT_QUEUE_PASSWORD=farm-pw-42",
          "optimize examples/vector_add --from examples/vector_add/tunable/vector_add_tunable_kernel.cu "
          "--budget 2 --store " +
              store + " --queue " + url());
  EXPECT_EQ(lonely.exit_code, 3) << lonely.err;
  EXPECT_NE(lonely.err.find("no worker has joined the farm"), std::string::npos) << lonely.err;
  EXPECT_FALSE(std::filesystem::exists(store)) << "nothing was evaluated, so no store";
  auto bench = run("KOPT_QUEUE_PASSWORD=farm-pw-42",
                   "bench suites/ --filter vector_add --budget 2 --store " + store + " --queue " + url());
  EXPECT_EQ(bench.exit_code, 3) << bench.err;
  EXPECT_NE(bench.err.find("no worker has joined the farm"), std::string::npos) << bench.err;
  EXPECT_FALSE(std::filesystem::exists(store)) << "kopt bench on an empty farm records nothing either";
  auto tls = run("", "optimize examples/vector_add --queue rediss://head --store " + store);
  EXPECT_EQ(tls.exit_code, 2) << tls.err;
  EXPECT_NE(tls.err.find("TLS"), std::string::npos) << tls.err;
}

}  // namespace farm_status_command_test
}  // namespace kopt::test
