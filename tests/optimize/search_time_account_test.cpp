#include <gtest/gtest.h>

#include "kopt/optimize.hpp"
#include "kopt/store.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace {

PhaseTimes phases() {
  PhaseTimes p;
  p.compile_ms = 300.0;
  p.compile_wait_ms = 20.0;
  p.worker_ms = 6.0;
  p.load_ms = 0.25;
  p.verify_ms = 4.0;
  p.time_ms = 1.5;
  return p;
}

TEST(SearchTimeAccount, SumsThePhasesOfEveryEvaluation) {
  SearchTimeAccount account;
  PhaseTimes first = phases();
  first.trusted_build_ms = 400.0;
  account.add(first);
  account.add(phases());
  EXPECT_EQ(account.evaluations, 2u);
  EXPECT_DOUBLE_EQ(account.compile_cpu_ms, 600.0);
  EXPECT_DOUBLE_EQ(account.compile_wait_ms, 40.0);
  EXPECT_DOUBLE_EQ(account.worker_ms, 12.0);
  EXPECT_DOUBLE_EQ(account.verify_ms, 8.0);
  EXPECT_DOUBLE_EQ(account.trusted_build_ms, 400.0);

  auto const json = search_time_to_json(account, 0.1);
  EXPECT_DOUBLE_EQ(json.at("search_ms").get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(json.at("kopt_ms").get<double>(), 0.0) << "100 ms less 40 + 12 + 400 is nothing left";
  EXPECT_DOUBLE_EQ(search_time_to_json(account, 1.0).at("kopt_ms").get<double>(),
                   1000.0 - 40.0 - 12.0 - 400.0);
  EXPECT_DOUBLE_EQ(json.at("worker_ms_per_evaluation").get<double>(), 6.0);
  std::string const line = search_time_line(account, 0.1);
  EXPECT_NE(line.find("worker 12"), std::string::npos) << line;
  EXPECT_NE(line.find("waiting for compiles 40"), std::string::npos) << line;
}

TEST(SearchTimeAccount, NamesTheSetupBesideTheSearch) {
  SearchTimeAccount account;
  account.add(phases());
  EXPECT_EQ(search_time_line(account, 1.0).find("before the search"), std::string::npos)
      << "no setup, no mention";
  EXPECT_EQ(search_time_line(account, 1.0).find("building the reference"), std::string::npos);
  account.setup_ms = 1500.0;
  std::string const line = search_time_line(account, 1.0);
  EXPECT_NE(line.find("the reference was built before the search in 1.50 s"), std::string::npos) << line;
  EXPECT_DOUBLE_EQ(search_time_to_json(account, 1.0).at("setup_ms").get<double>(), 1500.0);
  EXPECT_DOUBLE_EQ(search_time_to_json(account, 1.0).at("search_ms").get<double>(), 1000.0)
      << "the setup is not in the search's time";
}

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

TEST(SearchTimeAccount, SaysNothingWithoutEvaluations) {
  SearchTimeAccount const account;
  EXPECT_EQ(search_time_line(account, 1.0), "");
  EXPECT_TRUE(search_time_to_json(account, 1.0).at("worker_ms_per_evaluation").is_null());
}

TEST(SearchTimeAccount, OptimizeAccountsForEveryFreshScreenEvaluationButNotTheConfirm) {
  auto task = load_task(test::kTaskDir);
  ASSERT_TRUE(task) << task.error().message;
  test::TempDir dir;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  FakeCandidateEvaluator fake([](auto const& knobs) {
    FakeResult result = test::landscape(knobs);
    result.phases = phases();
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

}  // namespace
}  // namespace kopt
