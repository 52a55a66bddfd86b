#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "kopt/store.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace concurrency_test {

using test::sample_candidate;
using test::sample_evaluation;
using test::sample_run;

TEST(StoreConcurrency, SecondHandleSeesCommittedWritesOfTheFirst) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  auto writer = Store::open(path);
  auto reader = Store::open(path);
  ASSERT_TRUE(writer && reader);
  auto run = writer->create_run(sample_run());
  ASSERT_TRUE(run);
  auto candidate = writer->add_candidate(*run, sample_candidate("k"));
  ASSERT_TRUE(candidate);

  auto before = reader->find_evaluation_by_key(CandidateKey("k"), "GPU-1111", "13.0");
  ASSERT_TRUE(before);
  EXPECT_FALSE(*before);
  ASSERT_TRUE(writer->add_evaluation(*candidate, sample_evaluation(1.9)));
  auto after = reader->find_evaluation_by_key(CandidateKey("k"), "GPU-1111", "13.0");
  ASSERT_TRUE(after);
  ASSERT_TRUE(*after);
  EXPECT_EQ((*after)->evaluation.geomean_speedup, 1.9);

  // And the other way round.
  ASSERT_TRUE(reader->finish_run(*run, RunStatus::finished));
  auto runs = writer->list_runs();
  ASSERT_TRUE(runs);
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ(runs->front().status, RunStatus::finished);
}

TEST(StoreConcurrency, TwoHandlesWritingAtOnceLoseNothing) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  RunId run;
  CandidateId candidate;
  {
    auto setup = Store::open(path);
    ASSERT_TRUE(setup);
    auto created = setup->create_run(sample_run());
    ASSERT_TRUE(created);
    run = *created;
    auto added = setup->add_candidate(run, sample_candidate("k"));
    ASSERT_TRUE(added);
    candidate = *added;
  }
  constexpr int kPerWriter = 40;
  std::vector<std::string> failures(2);
  std::vector<std::thread> writers;
  writers.reserve(2);
  for (int w = 0; w < 2; ++w) {
    writers.emplace_back([&, w] {
      auto store = Store::open(path);
      if (!store) {
        failures[static_cast<std::size_t>(w)] = store.error().message;
        return;
      }
      for (int i = 0; i < kPerWriter; ++i) {
        auto added = store->add_evaluation(candidate, sample_evaluation(1.0 + w));
        if (!added) {
          failures[static_cast<std::size_t>(w)] = added.error().message;
          return;
        }
        auto read = store->load_run(run);  // reads interleave with the other writer's commits
        if (!read) {
          failures[static_cast<std::size_t>(w)] = read.error().message;
          return;
        }
      }
    });
  }
  for (auto& writer : writers) writer.join();
  EXPECT_EQ(failures[0], "");
  EXPECT_EQ(failures[1], "");
  auto store = Store::open(path);
  ASSERT_TRUE(store);
  auto history = store->load_run(run);
  ASSERT_TRUE(history);
  EXPECT_EQ(history->evaluations.size(), 2u * kPerWriter);
}

TEST(StoreConcurrency, OneHandleIsSafeToShareBetweenThreads) {
  test::TempDir dir;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store);
  auto run = store->create_run(sample_run());
  ASSERT_TRUE(run);
  std::vector<std::thread> threads;
  threads.reserve(4);
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        auto key = "t" + std::to_string(t) + "_" + std::to_string(i);
        auto id = store->add_candidate(*run, sample_candidate(key));
        if (!id || !store->add_evaluation(*id, sample_evaluation())) ++failures[static_cast<std::size_t>(t)];
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
  auto history = store->load_run(*run);
  ASSERT_TRUE(history);
  EXPECT_EQ(history->candidates.size(), 40u);
  EXPECT_EQ(history->evaluations.size(), 40u);
}

}  // namespace concurrency_test
}  // namespace kopt
