// The search time account as optimize keeps it: the setup before the clock, the fresh screen evaluations
// only (not the answers from the store, not the confirm).
#include <gtest/gtest.h>

#include "kopt/optimize.hpp"
#include "kopt/store.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace search_time_account_test {

TEST(SearchTimeAccount, AReferenceThatDoesNotCompileStopsTheRunBeforeAnyCandidate) {
  auto task = load_task(test::kTaskDir);
  ASSERT_TRUE(task) << task.error().message;
  test::TempDir dir;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  FakeCandidateEvaluator fake(test::landscape);
  fake.set_trusted_build_failure(
      make_error(ErrorCode::invalid_spec, "the task's reference (reference.cu) does not compile"));
  OptimizeOptions options;
  options.strategy = "exhaustive";
  options.max_evaluations = 10;
  options.source_path = test::kTunable;
  auto result = optimize(*task, test::read_text(test::kTunable), options, fake, *store);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::invalid_spec);
  EXPECT_NE(result.error().message.find("reference"), std::string::npos) << result.error().message;
  EXPECT_EQ(fake.calls(), 0u);
  auto runs = store->list_runs();
  ASSERT_TRUE(runs) << runs.error().message;
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_NE(runs->front().status, RunStatus::finished);
}

TEST(SearchTimeAccount, OptimizeAccountsForEveryFreshScreenEvaluationButNotTheConfirm) {
  auto task = load_task(test::kTaskDir);
  ASSERT_TRUE(task) << task.error().message;
  test::TempDir dir;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  FakeCandidateEvaluator fake([](auto const& knobs) {
    FakeResult result = test::landscape(knobs);
    result.phases.worker_ms = 6.0;
    return result;
  });
  OptimizeOptions options;
  options.strategy = "exhaustive";
  options.max_evaluations = 100;
  options.source_path = test::kTunable;
  auto result = optimize(*task, test::read_text(test::kTunable), options, fake, *store);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->evaluated, 56u) << "55 screen evaluations and the confirm";
  EXPECT_EQ(result->search_time.evaluations, 55u);
  EXPECT_DOUBLE_EQ(result->search_time.worker_ms, 55 * 6.0);
  EXPECT_GT(result->search_time.first_result_ms, 0.0);
  EXPECT_GE(result->confirm_seconds, 0.0);
  EXPECT_EQ(fake.trusted_builds(), 1u) << "the reference is built once, before the search";
  EXPECT_GE(result->search_time.setup_ms, 0.0);
  EXPECT_DOUBLE_EQ(result->search_time.trusted_build_ms, 0.0);

  // A second run is answered by the store: nothing fresh to account for.
  auto again = optimize(*task, test::read_text(test::kTunable), options, fake, *store);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->search_time.evaluations, 0u);
}

}  // namespace search_time_account_test
}  // namespace kopt
