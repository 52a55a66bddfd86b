#include <gtest/gtest.h>

#include "kopt/optimize.hpp"
#include "kopt/store.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace recorded_run_evaluator_test {

struct RecordedRunFixture : ::testing::Test {
  void SetUp() override {
    auto loaded = load_task(test::kTaskDir);
    ASSERT_TRUE(loaded) << loaded.error().message;
    task = *loaded;
    source = test::read_text(test::kTunable);
  }
  Store open_store(std::string const& name) {
    auto store = Store::open(dir.path() / name);
    EXPECT_TRUE(store) << store.error().message;
    return std::move(*store);
  }
  OptimizeOptions options(std::string strategy, std::size_t budget, std::uint64_t seed) {
    OptimizeOptions o;
    o.strategy = std::move(strategy);
    o.max_evaluations = budget;
    o.seed = seed;
    o.confirm = false;
    o.search_memory = false;
    return o;
  }
  test::TempDir dir;
  TaskSpec task;
  std::string source;
};

TEST_F(RecordedRunFixture, ReplayingAnExhaustiveRunGivesTheSameSearchAsTheLiveEvaluator) {
  Store recorded = open_store("recorded.db");
  FakeCandidateEvaluator live(test::landscape);
  auto exhaustive = optimize(task, source, options("exhaustive", 1000, 1), live, recorded);
  ASSERT_TRUE(exhaustive) << exhaustive.error().message;
  auto replay = RecordedRunEvaluator::create(recorded, exhaustive->run);
  ASSERT_TRUE(replay) << replay.error().message;
  EXPECT_EQ((*replay)->configurations(), exhaustive->points);
  EXPECT_EQ((*replay)->target().device_uuid, FakeCandidateEvaluator::fake_target().device_uuid);

  Store live_store = open_store("live.db");
  Store replay_store = open_store("replay.db");
  FakeCandidateEvaluator again(test::landscape);
  auto a = optimize(task, source, options("mcts", 20, 9), again, live_store);
  auto b = optimize(task, source, options("mcts", 20, 9), **replay, replay_store);
  ASSERT_TRUE(a) << a.error().message;
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ((*replay)->calls(), 20u);
  EXPECT_EQ(a->incumbent_config, b->incumbent_config);
  ASSERT_TRUE(a->incumbent_screen_speedup && b->incumbent_screen_speedup);
  EXPECT_DOUBLE_EQ(*a->incumbent_screen_speedup, *b->incumbent_screen_speedup);
  auto ha = live_store.load_run(a->run);
  auto hb = replay_store.load_run(b->run);
  ASSERT_TRUE(ha && hb);
  ASSERT_EQ(ha->evaluations.size(), hb->evaluations.size());
  for (std::size_t i = 0; i < ha->evaluations.size(); ++i) {
    EXPECT_EQ(ha->candidates[i].candidate.knobs, hb->candidates[i].candidate.knobs) << i;
    EXPECT_EQ(ha->evaluations[i].evaluation.status, hb->evaluations[i].evaluation.status) << i;
    EXPECT_EQ(ha->evaluations[i].evaluation.geomean_speedup, hb->evaluations[i].evaluation.geomean_speedup)
        << i;
  }
}

TEST_F(RecordedRunFixture, AConfigurationTheRunDidNotRecordIsAnError) {
  Store recorded = open_store("recorded.db");
  FakeCandidateEvaluator live(test::landscape);
  auto partial = optimize(task, source, options("random", 3, 1), live, recorded);
  ASSERT_TRUE(partial) << partial.error().message;
  auto replay = RecordedRunEvaluator::create(recorded, partial->run);
  ASSERT_TRUE(replay) << replay.error().message;
  Store other = open_store("other.db");
  auto run = optimize(task, source, options("exhaustive", 1000, 1), **replay, other);
  ASSERT_FALSE(run);
  EXPECT_EQ(run.error().code, ErrorCode::not_found);
  EXPECT_NE(run.error().message.find("was not recorded"), std::string::npos) << run.error().message;

  auto confirm_only = RecordedRunEvaluator::create(recorded, partial->run, "confirm");
  ASSERT_FALSE(confirm_only);
  EXPECT_NE(confirm_only.error().message.find("no confirm-tier evaluations"), std::string::npos);
  EXPECT_FALSE(RecordedRunEvaluator::create(recorded, RunId(77)));
}

}  // namespace recorded_run_evaluator_test
}  // namespace kopt
