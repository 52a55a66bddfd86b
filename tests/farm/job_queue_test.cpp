// JobQueue against a real redis-server on loopback (redis_server.hpp): the job life cycle of
// docs/distributed.md. Enqueued once per job id; a result recorded once however many times a job finishes;
// a job whose worker stops (killed, its host gone) reclaimed after the lease and re-run, with its delivery
// count; a lease kept alive by refreshing it and lost by a worker that stops; the queue, the pending jobs
// and the results surviving a server killed with SIGKILL (append-only file, fsync always).
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "kopt/farm.hpp"
#include "redis_queue_test.hpp"

namespace kopt::farm {
namespace job_queue_test {

using std::chrono::milliseconds;

class JobQueueTest : public test::RedisQueueTest {
 protected:
  JobQueue queue() { return connect_queue(); }
};

TEST_F(JobQueueTest, AJobIsEnqueuedOnceTakenOnceAndItsResultRecordedOnce) {
  JobQueue q = queue();
  ASSERT_TRUE(*q.enqueue({"job-a", R"({"candidate":"k.cu"})"}));
  EXPECT_FALSE(*q.enqueue({"job-a", "another payload"})) << "the same job id twice is one job";
  auto taken = q.take("gpu0", milliseconds(0));
  ASSERT_TRUE(taken.ok()) << taken.error().message;
  ASSERT_TRUE(taken->has_value());
  EXPECT_EQ((*taken)->job.id, "job-a");
  EXPECT_EQ((*taken)->job.payload, R"({"candidate":"k.cu"})");
  EXPECT_EQ((*taken)->deliveries, 1);
  auto none = q.take("gpu1", milliseconds(50));
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value()) << "a taken job is nobody else's";

  EXPECT_TRUE(*q.finish(**taken, "ok 1.5x"));
  EXPECT_FALSE(*q.finish(**taken, "ok 9.9x")) << "a second finish records nothing";
  EXPECT_EQ(**q.result("job-a"), "ok 1.5x");
  EXPECT_FALSE(q.result("job-b")->has_value());
  auto both = q.results({"job-b", "job-a"});
  ASSERT_TRUE(both.ok()) << both.error().message;
  ASSERT_EQ(both->size(), 2u);
  EXPECT_FALSE((*both)[0].has_value());
  EXPECT_EQ((*both)[1], "ok 1.5x") << "in the order asked";
  auto results = q.read_results("0", 10, milliseconds(0));
  ASSERT_TRUE(results.ok()) << results.error().message;
  ASSERT_EQ(results->size(), 1u) << "published once";
  EXPECT_EQ((*results)[0].job_id, "job-a");
  EXPECT_EQ((*results)[0].result, "ok 1.5x");
  auto stats = q.stats();
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->pending, 0);
  EXPECT_EQ(stats->waiting, 0);
  EXPECT_EQ(stats->results, 1);
  EXPECT_EQ(stats->results_last_minute, 1);
  EXPECT_EQ(stats->reclaimed, 0);
  EXPECT_FALSE(*q.enqueue({"job-a", "again"})) << "a finished job is not enqueued again";
}

TEST_F(JobQueueTest, AnAbandonedJobIsReclaimedAfterTheLeaseRerunAndRecordedOnce) {
  JobQueue q = queue();
  ASSERT_TRUE(*q.enqueue({"job-a", "p"}));
  auto first = q.take("gpu0", milliseconds(0));  // gpu0 takes it, then is killed: it never finishes
  ASSERT_TRUE(first.ok() && first->has_value());
  auto early = q.reclaim("gpu1", milliseconds(300), 4);
  ASSERT_TRUE(early.ok()) << early.error().message;
  EXPECT_TRUE(early->empty()) << "not before the lease runs out";
  std::this_thread::sleep_for(milliseconds(350));
  auto reclaimed = q.reclaim("gpu1", milliseconds(300), 4);
  ASSERT_TRUE(reclaimed.ok()) << reclaimed.error().message;
  ASSERT_EQ(reclaimed->size(), 1u);
  EXPECT_EQ((*reclaimed)[0].job.id, "job-a");
  EXPECT_EQ((*reclaimed)[0].deliveries, 2) << "the delivery count says it is a re-run";
  EXPECT_EQ(q.stats()->reclaimed, 1);
  EXPECT_FALSE(q.refresh("gpu0", (*first)->entry).ok()) << "the old worker's lease is gone";
  EXPECT_TRUE(*q.finish((*reclaimed)[0], "from gpu1"));
  EXPECT_FALSE(*q.finish(**first, "from gpu0, late")) << "a zombie's result is not recorded";
  EXPECT_EQ(**q.result("job-a"), "from gpu1");
  EXPECT_EQ(q.read_results("0", 10, milliseconds(0))->size(), 1u);
}

TEST_F(JobQueueTest, RefreshingKeepsTheLeaseAndStoppingLosesIt) {
  JobQueue q = queue();
  ASSERT_TRUE(*q.enqueue({"job-a", "p"}));
  auto taken = q.take("gpu0", milliseconds(0));
  ASSERT_TRUE(taken.ok() && taken->has_value());
  // 8 x 100 ms: longer than the 600 ms lease, refreshed every 100 ms (500 ms of slack for a busy machine).
  for (int i = 0; i < 8; ++i) {
    std::this_thread::sleep_for(milliseconds(100));
    ASSERT_TRUE(q.refresh("gpu0", (*taken)->entry).ok());
    EXPECT_TRUE(q.reclaim("gpu1", milliseconds(600), 4)->empty()) << "a refreshed lease holds";
  }
  std::this_thread::sleep_for(milliseconds(650));
  EXPECT_EQ(q.reclaim("gpu1", milliseconds(600), 4)->size(), 1u) << "a lease not refreshed runs out";
}

TEST_F(JobQueueTest, ManyJobsAreSharedWithoutLossOrDuplicates) {
  JobQueue q = queue();
  constexpr int kJobs = 200;
  for (int i = 0; i < kJobs; ++i) ASSERT_TRUE(*q.enqueue({"job-" + std::to_string(i), "p"}));
  EXPECT_EQ(q.stats()->waiting, kJobs) << "the queue's depth";
  std::set<std::string> seen;
  int turn = 0;
  while (true) {
    auto d = q.take("gpu" + std::to_string(turn++ % 4), milliseconds(0));
    ASSERT_TRUE(d.ok()) << d.error().message;
    if (!d->has_value()) break;
    EXPECT_TRUE(seen.insert((*d)->job.id).second) << (*d)->job.id << " delivered twice";
    ASSERT_TRUE(*q.finish(**d, "r"));
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kJobs));
  auto results = q.read_results("0", 2 * kJobs, milliseconds(0));
  EXPECT_EQ(results->size(), static_cast<std::size_t>(kJobs));
  auto stats = q.stats();
  EXPECT_EQ(stats->pending, 0);
  EXPECT_EQ(stats->consumers.size(), 4u);
}

TEST_F(JobQueueTest, AWorkerAnnouncesWhatItRunsOn) {
  JobQueue q = queue();
  ASSERT_TRUE(*q.enqueue({"job-a", "p"}));
  ASSERT_TRUE(*q.enqueue({"job-b", "p"}));
  ASSERT_TRUE(q.take("host1:gpu0", milliseconds(0))->has_value());
  ASSERT_TRUE(q.take("host1:gpu1", milliseconds(0))->has_value());
  WorkerInfo info{"host1", "NVIDIA H200", "sm_90", "GPU-1234", "13000", "2026-12-05T00:40:00Z"};
  ASSERT_TRUE(q.announce("host1:gpu0", info).ok());
  info.gpu = "NVIDIA H100";
  ASSERT_TRUE(q.announce("host1:gpu0", info).ok()) << "a restarted worker says it again";
  auto stats = q.stats();
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  ASSERT_EQ(stats->consumers.size(), 2u);
  for (auto const& c : stats->consumers) {
    if (c.name == "host1:gpu0") {
      ASSERT_TRUE(c.info.has_value());
      EXPECT_EQ(c.info->gpu, "NVIDIA H100");
      EXPECT_EQ(c.info->arch, "sm_90");
      EXPECT_EQ(c.info->driver, "13000");
    } else {
      EXPECT_FALSE(c.info.has_value()) << c.name << " never announced itself";
    }
  }
}

TEST_F(JobQueueTest, EnqueueAllAddsABatchInOneRoundTripAndSkipsKnownJobs) {
  JobQueue q = queue();
  ASSERT_TRUE(*q.enqueue({"job-1", "p"}));
  std::vector<Job> batch;
  batch.reserve(500);
  for (int i = 0; i < 500; ++i) batch.push_back({"job-" + std::to_string(i), "p" + std::to_string(i)});
  auto added = q.enqueue_all(batch);
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_EQ(*added, 499u) << "job-1 was there already";
  EXPECT_EQ(q.stats()->waiting, 500);
  EXPECT_FALSE(q.enqueue_all({{"", "no id"}}).ok());
}

TEST_F(JobQueueTest, JobsPendingJobsAndResultsSurviveTheServerKilled) {
  {
    JobQueue q = queue();
    for (auto id : {"a", "b", "c"}) ASSERT_TRUE(*q.enqueue({id, "p"}));
    auto taken = q.take("gpu0", milliseconds(0));
    ASSERT_TRUE(*q.finish(**taken, "done"));
    ASSERT_TRUE(q.take("gpu0", milliseconds(0))->has_value());  // b: pending when the server dies
  }
  server_->stop();  // SIGKILL
  auto restarted = server_->start();
  ASSERT_TRUE(restarted.ok()) << restarted.error().message;
  JobQueue q = queue();
  EXPECT_EQ(**q.result("a"), "done");
  auto stats = q.stats();
  ASSERT_TRUE(stats.ok()) << stats.error().message;
  EXPECT_EQ(stats->pending, 1) << "b is still gpu0's";
  auto c = q.take("gpu1", milliseconds(0));
  ASSERT_TRUE(c.ok() && c->has_value());
  EXPECT_EQ((*c)->job.id, "c");
  EXPECT_FALSE(q.take("gpu1", milliseconds(0))->has_value());
  EXPECT_FALSE(*q.enqueue({"b", "p"})) << "b was enqueued before the crash";
  EXPECT_EQ(q.reclaim("gpu1", milliseconds(0), 4)->front().job.id, "b");
}

TEST_F(JobQueueTest, AnUnreachableServerIsAnErrorNamingIt) {
  RedisEndpoint nowhere;
  nowhere.port = test::free_loopback_port();
  nowhere.password = "secret";
  auto q = JobQueue::connect(nowhere, QueueNames{}, milliseconds(500));
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.error().code, ErrorCode::io_error);
  EXPECT_NE(q.error().message.find("127.0.0.1:" + std::to_string(nowhere.port)), std::string::npos)
      << q.error().message;
  EXPECT_EQ(q.error().message.find("secret"), std::string::npos) << "never the password";
}

TEST(JobQueueAuth, APasswordProtectedServerTakesTheRightPasswordOnly) {
  if (auto reason = test::RedisServer::unavailable(); !reason.empty()) GTEST_SKIP() << reason;
  test::TempDir dir;
  test::RedisServer server(dir.path(), {"--requirepass", "s3cret-pw"});
  ASSERT_TRUE(server.start().ok());
  RedisEndpoint endpoint = server.endpoint();
  auto anonymous = JobQueue::connect(endpoint, QueueNames{});
  ASSERT_FALSE(anonymous.ok());
  EXPECT_NE(anonymous.error().message.find("NOAUTH"), std::string::npos) << anonymous.error().message;
  endpoint.password = "wrong-pw";
  auto wrong = JobQueue::connect(endpoint, QueueNames{});
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("authentication refused"), std::string::npos) << wrong.error().message;
  EXPECT_EQ(wrong.error().message.find("wrong-pw"), std::string::npos) << "never the password";
  endpoint.password = "s3cret-pw";
  auto right = JobQueue::connect(endpoint, QueueNames{});
  ASSERT_TRUE(right.ok()) << right.error().message;
  EXPECT_TRUE(*right->enqueue({"job-a", "p"}));
}

}  // namespace job_queue_test
}  // namespace kopt::farm
