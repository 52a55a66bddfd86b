// RunLog: a run written to the store and reopened, the dedupe cache across runs, the search-memory
// snapshot, and the content key that decides what counts as the same candidate.
#include "kopt/run_log.hpp"

#include <gtest/gtest.h>

#include "run/run_fixtures.hpp"

namespace kopt {
namespace run_log_test {

using test::RunStore;

TEST(ContentKey, NamesTheTextFlagsArchitectureAndToolkitButNotTheDevice) {
  CandidateInput const input = test::candidate("128");
  EvaluationTarget const target = test::h200_target();
  CandidateKey const key = content_key(input, target);
  EXPECT_EQ(key.value().size(), 32u) << "128 bits in hex";
  EvaluationTarget other_device = target;
  other_device.device_uuid = "GPU-2";
  EXPECT_EQ(content_key(input, other_device), key) << "the same text on a twin card is the same candidate";
  EvaluationTarget other_arch = target;
  other_arch.arch = "sm_100";
  EXPECT_NE(content_key(input, other_arch), key);
  EvaluationTarget other_toolkit = target;
  other_toolkit.toolkit = "13.0";
  EXPECT_NE(content_key(input, other_toolkit), key);
  CandidateInput flagged = input;
  flagged.flags = {"-use_fast_math"};
  EXPECT_NE(content_key(flagged, target), key);
  CandidateInput launcher = input;
  launcher.mode = CandidateMode::launcher;
  EXPECT_NE(content_key(launcher, target), key);
}

TEST_F(RunStore, ARunIsRecordedAndReopenedWithItsOwnEvaluations) {
  auto log = RunLog::create(*store, test::run_row("mcts"), "");
  ASSERT_TRUE(log) << log.error().message;
  CandidateInput const fast = test::candidate("256");
  CandidateInput const broken = test::candidate("2048");
  CandidateId const fast_id = record(*log, fast, test::ok_evaluation(2.0));
  record(*log, broken, test::failed_evaluation(CandidateStatus::launch_error, "too many threads"));
  record(*log, fast, test::ok_evaluation(1.9, "confirm"));
  ASSERT_TRUE(log->finish(false));

  auto reopened = RunLog::reopen(*store, log->id());
  ASSERT_TRUE(reopened) << reopened.error().message;
  CandidateKey const key = content_key(fast, test::h200_target());
  EXPECT_EQ(reopened->candidate_id(key), fast_id) << "the candidate is recorded once, whatever its tiers";
  auto screen = reopened->own(key, "screen");
  ASSERT_TRUE(screen);
  EXPECT_EQ(screen->geomean_speedup, 2.0);
  auto confirm = reopened->own(key, "confirm");
  ASSERT_TRUE(confirm);
  EXPECT_EQ(confirm->geomean_speedup, 1.9);
  auto failed = reopened->own(content_key(broken, test::h200_target()), "screen");
  ASSERT_TRUE(failed);
  EXPECT_EQ(failed->status, CandidateStatus::launch_error);
  EXPECT_EQ(failed->message, "too many threads");
  EXPECT_FALSE(reopened->own(content_key(test::candidate("64"), test::h200_target()), "screen"));
  EXPECT_TRUE(reopened->memory_family().empty());
}

TEST_F(RunStore, TheCacheAnswersFromAnyRunOnTheSameToolkitAndScreenTierOnly) {
  auto first = RunLog::create(*store, test::run_row("random"), "");
  ASSERT_TRUE(first) << first.error().message;
  CandidateInput const input = test::candidate("128");
  RecordedEvaluation screened = test::ok_evaluation(3.0);
  CandidateInsight insight;
  insight.size = "large";
  insight.source = "roofline";
  screened.insights.push_back(insight);
  record(*first, input, screened);
  record(*first, test::candidate("64"), test::ok_evaluation(5.0, "confirm"));

  auto second = RunLog::create(*store, test::run_row("mcts"), "");
  ASSERT_TRUE(second) << second.error().message;
  auto cached = second->cached(content_key(input, test::h200_target()), test::h200_target());
  ASSERT_TRUE(cached) << cached.error().message;
  ASSERT_TRUE(*cached) << "another run's screen evaluation answers";
  EXPECT_EQ((*cached)->geomean_speedup, 3.0);
  ASSERT_EQ((*cached)->insights.size(), 1u) << "with the insights recorded with it";
  EXPECT_EQ((*cached)->insights[0].source, "roofline");
  EXPECT_FALSE(second->own(content_key(input, test::h200_target()), "screen"))
      << "a cached answer is not the run's own until it records it";

  auto confirm_only =
      second->cached(content_key(test::candidate("64"), test::h200_target()), test::h200_target());
  ASSERT_TRUE(confirm_only);
  EXPECT_FALSE(*confirm_only) << "confirm-tier timings are not comparable with screen rewards";

  EvaluationTarget other_toolkit = test::h200_target();
  other_toolkit.toolkit = "13.0";
  auto elsewhere = second->cached(content_key(input, other_toolkit), other_toolkit);
  ASSERT_TRUE(elsewhere);
  EXPECT_FALSE(*elsewhere);
}

TEST_F(RunStore, SearchMemoryIsSnapshottedAtCreationAndLearnedOncePerRun) {
  ASSERT_TRUE(store->record_action_outcome("elementwise", "BLOCK:+1", true, 0.5));
  auto log = RunLog::create(*store, test::run_row("mcts"), "elementwise");
  ASSERT_TRUE(log) << log.error().message;
  EXPECT_EQ(log->memory_family(), "elementwise");
  ASSERT_EQ(log->memory_prior().size(), 1u);
  EXPECT_EQ(log->memory_prior()[0].action, "BLOCK:+1");
  EXPECT_EQ(log->memory_prior()[0].tries, 1);
  EXPECT_DOUBLE_EQ(log->memory_prior()[0].mean_gain, 0.5);

  // What is learned after the snapshot does not change it: a resume sees the prior the run started with.
  ASSERT_TRUE(log->record_memory({{"BLOCK:-1", -0.2}}));
  ASSERT_TRUE(log->record_memory({{"BLOCK:-1", -0.2}}));
  auto reopened = RunLog::reopen(*store, log->id());
  ASSERT_TRUE(reopened) << reopened.error().message;
  EXPECT_EQ(reopened->memory_family(), "elementwise");
  ASSERT_EQ(reopened->memory_prior().size(), 1u);
  auto memory = store->search_memory("elementwise");
  ASSERT_TRUE(memory) << memory.error().message;
  ASSERT_EQ(memory->size(), 2u);
  for (ActionRecord const& record : *memory) EXPECT_EQ(record.tries, 1) << record.action;
}

TEST_F(RunStore, ARunWithoutAFamilyLearnsNothing) {
  auto log = RunLog::create(*store, test::run_row("mcts"), "");
  ASSERT_TRUE(log) << log.error().message;
  ASSERT_TRUE(log->record_memory({{"BLOCK:+1", 0.3}}));
  auto memory = store->search_memory("elementwise");
  ASSERT_TRUE(memory);
  EXPECT_TRUE(memory->empty());
}

TEST_F(RunStore, AMemorySnapshotKoptDidNotWriteIsAnError) {
  kopt::Run run = test::run_row("mcts");
  run.options["memory"] = {{"family", "elementwise"}, {"prior", "none"}};
  auto id = store->create_run(run);
  ASSERT_TRUE(id) << id.error().message;
  auto reopened = RunLog::reopen(*store, *id);
  ASSERT_FALSE(reopened);
  EXPECT_EQ(reopened.error().code, ErrorCode::invalid_spec);
  EXPECT_NE(reopened.error().message.find("options.memory.prior"), std::string::npos)
      << reopened.error().message;
}

TEST_F(RunStore, InsightsGoToTheStoreAndComeBackCurrent) {
  auto log = RunLog::create(*store, test::run_row("mcts"), "");
  ASSERT_TRUE(log) << log.error().message;
  RecordedEvaluation evaluation = test::ok_evaluation(2.0);
  CandidateInsight insight;
  insight.size = "large";
  insight.source = "roofline";
  insight.classification.summary = "memory bound";
  evaluation.insights.push_back(insight);
  CandidateId const id = record(*log, test::candidate("128"), evaluation);

  auto loaded = load_candidate_insights(*store, id);
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_EQ(loaded->size(), 1u);
  EXPECT_EQ((*loaded)[0].classification.summary, "memory bound");
  auto source = make_store_insight_source(*store);
  auto through_source = source->insights(id);
  ASSERT_TRUE(through_source) << through_source.error().message;
  EXPECT_EQ(through_source->size(), 1u);

  InsightRecord const row = insight_record(insight);
  EXPECT_EQ(row.size, "large");
  EXPECT_EQ(row.summary, "memory bound");
  StoredInsight undecodable;
  undecodable.insight.document = "not an insight";
  EXPECT_TRUE(decode_insights({undecodable}).empty()) << "a document that does not decode is left out";
}

}  // namespace run_log_test
}  // namespace kopt
