#include <gtest/gtest.h>

#include "kopt/store.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace round_trip_test {

using test::sample_candidate;
using test::sample_evaluation;
using test::sample_run;

class StoreRoundTrip : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = Store::open(dir_.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store_.emplace(std::move(*opened));
  }
  Store& store() { return *store_; }

  test::TempDir dir_;
  std::optional<Store> store_;
};

TEST_F(StoreRoundTrip, RunFieldsSurviveAndStartRunning) {
  auto id = store().create_run(sample_run());
  ASSERT_TRUE(id) << id.error().message;
  auto runs = store().list_runs();
  ASSERT_TRUE(runs) << runs.error().message;
  ASSERT_EQ(runs->size(), 1u);
  auto const& stored = runs->front();
  EXPECT_EQ(stored.id, *id);
  EXPECT_EQ(stored.status, RunStatus::running);
  EXPECT_FALSE(stored.finished_at);
  EXPECT_EQ(stored.started_at.size(), 24u) << stored.started_at;  // 2025-01-02T03:04:05.678Z
  EXPECT_EQ(stored.started_at.back(), 'Z');
  auto const expected = sample_run();
  EXPECT_EQ(stored.run.task_name, expected.task_name);
  EXPECT_EQ(stored.run.task_dir, expected.task_dir);
  EXPECT_EQ(stored.run.options, expected.options);
  EXPECT_EQ(stored.run.seed, expected.seed);
  EXPECT_EQ(stored.run.budget, expected.budget);
}

TEST_F(StoreRoundTrip, FinishRunRecordsStatusAndTime) {
  auto first = store().create_run(sample_run("a"));
  auto second = store().create_run(sample_run("b"));
  ASSERT_TRUE(first && second);
  ASSERT_TRUE(store().finish_run(*first, RunStatus::finished));
  ASSERT_TRUE(store().finish_run(*second, RunStatus::interrupted));
  auto runs = store().list_runs();
  ASSERT_TRUE(runs);
  ASSERT_EQ(runs->size(), 2u);
  EXPECT_EQ((*runs)[0].run.task_name, "a");
  EXPECT_EQ((*runs)[0].status, RunStatus::finished);
  EXPECT_TRUE((*runs)[0].finished_at);
  EXPECT_EQ((*runs)[1].status, RunStatus::interrupted);
}

TEST_F(StoreRoundTrip, FinishRunRejectsRunningAndUnknownRuns) {
  auto run = store().create_run(sample_run());
  ASSERT_TRUE(run);
  auto running = store().finish_run(*run, RunStatus::running);
  ASSERT_FALSE(running);
  EXPECT_EQ(running.error().code, ErrorCode::invalid_argument);
  auto unknown = store().finish_run(RunId(999), RunStatus::finished);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::not_found);
  EXPECT_NE(unknown.error().message.find("no run 999"), std::string::npos) << unknown.error().message;
}

TEST_F(StoreRoundTrip, LoadRunReturnsCandidatesAndEvaluationsInOrder) {
  auto run = store().create_run(sample_run());
  auto other_run = store().create_run(sample_run("other"));
  ASSERT_TRUE(run && other_run);
  auto seed = store().add_candidate(*run, sample_candidate("k-seed"));
  ASSERT_TRUE(seed) << seed.error().message;
  auto child = store().add_candidate(*run, sample_candidate("k-child", *seed));
  ASSERT_TRUE(child) << child.error().message;
  auto elsewhere = store().add_candidate(*other_run, sample_candidate("k-else"));
  ASSERT_TRUE(elsewhere);
  EvaluationRecord failed = sample_evaluation(std::nullopt, "GPU-1111", "13.0", "screen");
  failed.status = CandidateStatus::wrong_output;
  failed.message = "size small: 12 mismatches";
  ASSERT_TRUE(store().add_evaluation(*seed, sample_evaluation(1.25)));
  ASSERT_TRUE(store().add_evaluation(*child, failed));
  ASSERT_TRUE(store().add_evaluation(*elsewhere, sample_evaluation(9.0)));

  auto history = store().load_run(*run);
  ASSERT_TRUE(history) << history.error().message;
  EXPECT_EQ(history->run.id, *run);
  ASSERT_EQ(history->candidates.size(), 2u);
  auto const& seed_row = history->candidates[0];
  auto const expected = sample_candidate("k-seed");
  EXPECT_EQ(seed_row.id, *seed);
  EXPECT_EQ(seed_row.run, *run);
  EXPECT_EQ(seed_row.candidate.key, expected.key);
  EXPECT_EQ(seed_row.candidate.source, expected.source);
  EXPECT_EQ(seed_row.candidate.knobs, expected.knobs);
  EXPECT_EQ(seed_row.candidate.flags, expected.flags);
  EXPECT_FALSE(seed_row.candidate.parent);
  EXPECT_EQ(seed_row.candidate.mode, "kernel");
  EXPECT_EQ(history->candidates[1].candidate.parent, *seed);
  EXPECT_EQ(history->candidates[1].candidate.action, "tile_rows");

  ASSERT_EQ(history->evaluations.size(), 2u);  // not the other run's
  auto const& first = history->evaluations[0];
  EXPECT_EQ(first.candidate, *seed);
  EXPECT_EQ(first.evaluation.status, CandidateStatus::ok);
  EXPECT_EQ(first.evaluation.geomean_speedup, 1.25);
  EXPECT_EQ(first.evaluation.sizes, sample_evaluation().sizes);
  EXPECT_EQ(first.evaluation.device_name, "NVIDIA H200");
  EXPECT_EQ(first.evaluation.driver, "580.65.06");
  EXPECT_FALSE(first.created_at.empty());
  auto const& second = history->evaluations[1];
  EXPECT_EQ(second.candidate, *child);
  EXPECT_EQ(second.evaluation.status, CandidateStatus::wrong_output);
  EXPECT_EQ(second.evaluation.message, "size small: 12 mismatches");
  EXPECT_EQ(second.evaluation.tier, "screen");
  EXPECT_FALSE(second.evaluation.geomean_speedup);
}

TEST_F(StoreRoundTrip, LoadUnknownRunIsNotFound) {
  auto history = store().load_run(RunId(42));
  ASSERT_FALSE(history);
  EXPECT_EQ(history.error().code, ErrorCode::not_found);
  EXPECT_NE(history.error().message.find((dir_.path() / "kopt.db").string()), std::string::npos);
}

TEST_F(StoreRoundTrip, AddingTheSameKeyTwiceInARunReturnsTheExistingCandidate) {
  auto run = store().create_run(sample_run());
  auto other = store().create_run(sample_run());
  ASSERT_TRUE(run && other);
  auto first = store().add_candidate(*run, sample_candidate("same"));
  auto again = store().add_candidate(*run, sample_candidate("same"));
  auto other_run = store().add_candidate(*other, sample_candidate("same"));
  ASSERT_TRUE(first && again && other_run);
  EXPECT_EQ(*first, *again);
  EXPECT_NE(*first, *other_run);
  auto found = store().find_candidate(*run, CandidateKey("same"));
  ASSERT_TRUE(found);
  ASSERT_TRUE(*found);
  EXPECT_EQ((*found)->id, *first);
  auto missing = store().find_candidate(*run, CandidateKey("nope"));
  ASSERT_TRUE(missing);
  EXPECT_FALSE(*missing);
}

TEST_F(StoreRoundTrip, ReferencesToMissingRowsAreRejected) {
  auto run = store().create_run(sample_run());
  ASSERT_TRUE(run);
  auto no_run = store().add_candidate(RunId(77), sample_candidate("x"));
  ASSERT_FALSE(no_run);
  EXPECT_EQ(no_run.error().code, ErrorCode::not_found);
  auto no_parent = store().add_candidate(*run, sample_candidate("y", CandidateId(55)));
  ASSERT_FALSE(no_parent);
  EXPECT_NE(no_parent.error().message.find("no parent candidate 55"), std::string::npos);
  auto no_candidate = store().add_evaluation(CandidateId(12), sample_evaluation());
  ASSERT_FALSE(no_candidate);
  EXPECT_EQ(no_candidate.error().code, ErrorCode::not_found);
  auto empty_key = store().add_candidate(*run, sample_candidate(""));
  ASSERT_FALSE(empty_key);
  EXPECT_EQ(empty_key.error().code, ErrorCode::invalid_argument);
  auto history = store().load_run(*run);
  ASSERT_TRUE(history);
  EXPECT_TRUE(history->candidates.empty());  // failed writes left nothing behind
}

TEST_F(StoreRoundTrip, SearchMemoryAccumulatesTriesImprovementsAndMeanGain) {
  ASSERT_TRUE(store().record_action_outcome("reduction", "unroll", true, 0.30));
  ASSERT_TRUE(store().record_action_outcome("reduction", "unroll", false, -0.10));
  ASSERT_TRUE(store().record_action_outcome("reduction", "unroll", true, 0.10));
  ASSERT_TRUE(store().record_action_outcome("reduction", "add_vectorize", false, 0.0));
  ASSERT_TRUE(store().record_action_outcome("gemm", "unroll", true, 1.0));
  auto memory = store().search_memory("reduction");
  ASSERT_TRUE(memory) << memory.error().message;
  ASSERT_EQ(memory->size(), 2u);
  EXPECT_EQ((*memory)[0].action, "add_vectorize");
  EXPECT_EQ((*memory)[0].tries, 1);
  auto const& unroll = (*memory)[1];
  EXPECT_EQ(unroll.task_family, "reduction");
  EXPECT_EQ(unroll.action, "unroll");
  EXPECT_EQ(unroll.tries, 3);
  EXPECT_EQ(unroll.improvements, 2);
  EXPECT_NEAR(unroll.mean_log_gain, (0.30 - 0.10 + 0.10) / 3.0, 1e-12);
  auto none = store().search_memory("stencil");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(store().record_action_outcome("reduction", "unroll", true, std::nan("")));
  EXPECT_FALSE(store().record_action_outcome("", "unroll", true, 0.1));
}

TEST_F(StoreRoundTrip, RunSearchMemoryIsRecordedOncePerRun) {
  auto run = store().create_run(sample_run());
  ASSERT_TRUE(run);
  std::vector<ActionOutcome> const outcomes = {{"BLOCK:+1", 0.2}, {"BLOCK:+1", -0.4}, {"VEC:-1", 0.1}};
  ASSERT_TRUE(store().record_search_memory(*run, "gemm", outcomes));
  ASSERT_TRUE(store().record_search_memory(*run, "gemm", outcomes));  // a resumed run finishing again
  auto memory = store().search_memory("gemm");
  ASSERT_TRUE(memory) << memory.error().message;
  ASSERT_EQ(memory->size(), 2u);
  EXPECT_EQ((*memory)[0].action, "BLOCK:+1");
  EXPECT_EQ((*memory)[0].tries, 2);
  EXPECT_EQ((*memory)[0].improvements, 1);
  EXPECT_NEAR((*memory)[0].mean_log_gain, -0.1, 1e-12);
  EXPECT_EQ((*memory)[1].tries, 1);

  auto other = store().create_run(sample_run());
  ASSERT_TRUE(other);
  ASSERT_TRUE(store().record_search_memory(*other, "gemm", {{"VEC:-1", 0.3}}));
  memory = store().search_memory("gemm");
  ASSERT_TRUE(memory);
  EXPECT_EQ((*memory)[1].tries, 2);
  EXPECT_NEAR((*memory)[1].mean_log_gain, 0.2, 1e-12);

  auto unknown = store().record_search_memory(RunId(999), "gemm", outcomes);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::not_found);
  auto third = store().create_run(sample_run());
  ASSERT_TRUE(third);
  auto bad = store().record_search_memory(*third, "gemm", {{"VEC:+1", 0.1}, {"", 0.1}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::invalid_argument);
  memory = store().search_memory("gemm");
  ASSERT_TRUE(memory);
  EXPECT_EQ(memory->size(), 2u);  // nothing of the refused batch was written
  ASSERT_TRUE(store().record_search_memory(*third, "gemm", {{"VEC:+1", 0.1}}));  // not claimed by the refusal
}

TEST_F(StoreRoundTrip, DataSurvivesReopening) {
  auto run = store().create_run(sample_run());
  ASSERT_TRUE(run);
  auto candidate = store().add_candidate(*run, sample_candidate("persist"));
  ASSERT_TRUE(candidate);
  ASSERT_TRUE(store().add_evaluation(*candidate, sample_evaluation(2.0)));
  ASSERT_TRUE(store().record_action_outcome("softmax", "warp_per_row", true, 0.7));
  store_.reset();
  auto reopened = Store::open(dir_.path() / "kopt.db");
  ASSERT_TRUE(reopened) << reopened.error().message;
  auto history = reopened->load_run(*run);
  ASSERT_TRUE(history);
  ASSERT_EQ(history->evaluations.size(), 1u);
  EXPECT_EQ(history->evaluations[0].evaluation.geomean_speedup, 2.0);
  auto memory = reopened->search_memory("softmax");
  ASSERT_TRUE(memory);
  ASSERT_EQ(memory->size(), 1u);
  EXPECT_TRUE(reopened->check_integrity());
}

TEST(RunStatusText, RoundTripsAndRejectsUnknownText) {
  for (auto status : {RunStatus::running, RunStatus::finished, RunStatus::interrupted}) {
    EXPECT_EQ(run_status_from_string(to_string(status)), status);
  }
  EXPECT_FALSE(run_status_from_string("done"));
}

}  // namespace round_trip_test
}  // namespace kopt
