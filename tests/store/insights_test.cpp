// Insights in the store: add, list by evaluation, candidate and run, replace on the same key, migrate.
#include <gtest/gtest.h>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/migrations.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace insights_test {

using test::raw_exec;
using test::raw_int;

InsightRecord sample_insight(std::string size, std::string source = "roofline",
                             std::string bottleneck = "memory_bound") {
  InsightRecord record;
  record.size = std::move(size);
  record.source = std::move(source);
  record.bottleneck = std::move(bottleneck);
  record.summary = "Memory-bound: 86% of DRAM.";
  record.document = {
      {"schema", "kopt.insight/1"}, {"size", record.size}, {"findings", nlohmann::json::array()}};
  return record;
}

struct InsightStore : ::testing::Test {
  void SetUp() override {
    auto opened = Store::open(dir.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store.emplace(std::move(*opened));
    auto created = store->create_run(test::sample_run());
    ASSERT_TRUE(created);
    run = *created;
    auto a = store->add_candidate(run, test::sample_candidate("key-a"));
    auto b = store->add_candidate(run, test::sample_candidate("key-b"));
    ASSERT_TRUE(a && b);
    first = *a;
    second = *b;
  }
  EvaluationId evaluate(CandidateId candidate) {
    auto id = store->add_evaluation(candidate, test::sample_evaluation());
    EXPECT_TRUE(id) << id.error().message;
    return id ? *id : EvaluationId(0);
  }
  test::TempDir dir;
  std::optional<Store> store;
  RunId run;
  CandidateId first;
  CandidateId second;
};

TEST_F(InsightStore, AddedInsightsAreListedByEvaluationCandidateAndRun) {
  EvaluationId const e1 = evaluate(first);
  EvaluationId const e2 = evaluate(second);
  auto small = store->add_insight(e1, sample_insight("small"));
  auto large = store->add_insight(e1, sample_insight("large"));
  auto other = store->add_insight(e2, sample_insight("large", "ncu", "small_grid"));
  ASSERT_TRUE(small && large && other) << (small ? "" : small.error().message);

  auto by_evaluation = store->insights_for_evaluation(e1);
  ASSERT_TRUE(by_evaluation) << by_evaluation.error().message;
  ASSERT_EQ(by_evaluation->size(), 2u);
  StoredInsight const& stored = (*by_evaluation)[0];
  EXPECT_EQ(stored.id, *small);
  EXPECT_EQ(stored.evaluation, e1);
  EXPECT_EQ(stored.candidate, first);
  EXPECT_EQ(stored.insight.size, "small");
  EXPECT_EQ(stored.insight.source, "roofline");
  EXPECT_EQ(stored.insight.bottleneck, "memory_bound");
  EXPECT_EQ(stored.insight.summary, "Memory-bound: 86% of DRAM.");
  EXPECT_EQ(stored.insight.document, sample_insight("small").document);
  EXPECT_FALSE(stored.created_at.empty());

  auto by_candidate = store->insights_for_candidate(second);
  ASSERT_TRUE(by_candidate);
  ASSERT_EQ(by_candidate->size(), 1u);
  EXPECT_EQ((*by_candidate)[0].insight.bottleneck, "small_grid");
  auto by_run = store->insights_for_run(run);
  ASSERT_TRUE(by_run);
  ASSERT_EQ(by_run->size(), 3u);
  EXPECT_EQ((*by_run)[2].id, *other);

  auto other_run = store->create_run(test::sample_run("gemm"));
  ASSERT_TRUE(other_run);
  auto none = store->insights_for_run(*other_run);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST_F(InsightStore, SameEvaluationSourceAndSizeReplacesInsteadOfDuplicating) {
  EvaluationId const e1 = evaluate(first);
  auto before = store->add_insight(e1, sample_insight("large"));
  ASSERT_TRUE(before);
  InsightRecord changed = sample_insight("large", "roofline", "latency_bound");
  changed.document["note"] = "newer";
  auto again = store->add_insight(e1, changed);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(*again, *before);
  auto listed = store->insights_for_evaluation(e1);
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].insight.bottleneck, "latency_bound");
  EXPECT_EQ((*listed)[0].insight.document["note"], "newer");
  // Another source for the same size is another row.
  ASSERT_TRUE(store->add_insight(e1, sample_insight("large", "ncu")));
  EXPECT_EQ(store->insights_for_evaluation(e1)->size(), 2u);
}

TEST_F(InsightStore, BadInputIsAnErrorNamingTheField) {
  auto missing = store->add_insight(EvaluationId(99), sample_insight("large"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  EXPECT_NE(missing.error().message.find("evaluation 99"), std::string::npos) << missing.error().message;
  EvaluationId const e1 = evaluate(first);
  auto no_size = store->add_insight(e1, sample_insight(""));
  ASSERT_FALSE(no_size);
  EXPECT_NE(no_size.error().message.find("size"), std::string::npos);
  InsightRecord not_object = sample_insight("large");
  not_object.document = nlohmann::json::array();
  auto bad_document = store->add_insight(e1, not_object);
  ASSERT_FALSE(bad_document);
  EXPECT_NE(bad_document.error().message.find("document: expected a JSON object"), std::string::npos);
  EXPECT_FALSE(store->insights_for_candidate(CandidateId(77)));
  EXPECT_FALSE(store->insights_for_run(RunId(77)));
  EXPECT_FALSE(store->insights_for_evaluation(EvaluationId(77)));
}

TEST_F(InsightStore, CorruptDocumentIsAnErrorNamingTheRow) {
  EvaluationId const e1 = evaluate(first);
  ASSERT_TRUE(store->add_insight(e1, sample_insight("large")));
  raw_exec(dir.path() / "kopt.db", "UPDATE insights SET document = '{broken'");
  auto listed = store->insights_for_evaluation(e1);
  ASSERT_FALSE(listed);
  EXPECT_NE(listed.error().message.find("table insights, row 1, column document"), std::string::npos)
      << listed.error().message;
}

TEST(StoreMigrations, VersionTwoDatabaseGainsTheInsightsTable) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  {
    auto connection = store_detail::open_connection(path);
    ASSERT_TRUE(connection);
    ASSERT_TRUE(store_detail::apply_migrations(**connection, store_detail::store_migrations().first(2)));
  }
  raw_exec(
      path,
      "INSERT INTO runs (task_name, task_dir, options, seed, budget, status) "
      "VALUES ('t', '/t', '{}', 1, '{}', 'interrupted');"
      "INSERT INTO candidates (run_id, content_key, source, knobs, flags, action, mode) "
      "VALUES (1, 'k', 's', '{}', '[]', '', 'kernel');"
      "INSERT INTO evaluations (candidate_id, status, message, device_name, device_uuid, driver, toolkit, "
      "tier, sizes) VALUES (1, 'ok', '', 'd', 'u', '1', '13.0', 'screen', '[]');");
  ASSERT_EQ(raw_int(path, "PRAGMA user_version"), 2);
  ASSERT_EQ(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'insights'"), 0);
  auto store = Store::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), store_schema_version());
  EXPECT_GE(store_schema_version(), 3);
  EXPECT_EQ(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'insights_by_candidate'"), 1);
  auto old_run = store->insights_for_run(RunId(1));  // an old run has none
  ASSERT_TRUE(old_run) << old_run.error().message;
  EXPECT_TRUE(old_run->empty());
  auto added = store->add_insight(EvaluationId(1), sample_insight("large"));
  ASSERT_TRUE(added) << added.error().message;
  EXPECT_EQ(raw_int(path, "SELECT candidate_id FROM insights"), 1);
  EXPECT_TRUE(store->check_integrity());
}

}  // namespace insights_test
}  // namespace kopt
