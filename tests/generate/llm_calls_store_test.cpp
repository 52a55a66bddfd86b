// The store's llm_calls table: rows round-trip, a candidate is linked later and only from the same run,
// bad rows are refused with messages that name the field, and the migration brings older files up to it.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "kopt/store.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace llm_calls_store_test {

Run some_run(std::string const& task) {
  Run run;
  run.task_name = task;
  run.task_dir = "/tasks/" + task;
  run.options = {{"strategy", "generate"}};
  return run;
}

LlmCallRecord some_call() {
  LlmCallRecord call;
  call.role = "generator";
  call.purpose = "softmax_warp_per_row, draft";
  call.model = "qwen2.5-coder";
  call.backend = "openai";
  call.request_sha256 = std::string(64, 'a');
  call.input_tokens = 3100;
  call.output_tokens = 900;
  call.reasoning_tokens = 12;
  call.cost_usd = 0.0042;
  call.latency_ms = 8123.5;
  return call;
}

TEST(LlmCallsStore, RowsRoundTripAndTheCandidateIsLinkedLater) {
  test::TempDir dir;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  auto run = store->create_run(some_run("softmax"));
  ASSERT_TRUE(run);
  auto first = store->add_llm_call(*run, some_call());
  ASSERT_TRUE(first) << first.error().message;
  LlmCallRecord failed = some_call();
  failed.role = "coder";
  failed.status = "error";
  failed.error = "HTTP 500";
  failed.input_tokens.reset();
  failed.cost_usd.reset();
  failed.from_cache = true;
  auto second = store->add_llm_call(*run, failed);
  ASSERT_TRUE(second);

  Candidate candidate;
  candidate.key = CandidateKey("k1");
  candidate.source = "__global__ void softmax() {}";
  candidate.mode = "kernel";
  auto id = store->add_candidate(*run, candidate);
  ASSERT_TRUE(id);
  ASSERT_TRUE(store->set_llm_call_candidate(*first, *id));

  auto calls = store->llm_calls_for_run(*run);
  ASSERT_TRUE(calls) << calls.error().message;
  ASSERT_EQ(calls->size(), 2U);
  StoredLlmCall const& a = (*calls)[0];
  EXPECT_EQ(a.id, *first);
  EXPECT_EQ(a.run, *run);
  EXPECT_EQ(a.call.candidate, *id);
  EXPECT_EQ(a.call.role, "generator");
  EXPECT_EQ(a.call.purpose, "softmax_warp_per_row, draft");
  EXPECT_EQ(a.call.model, "qwen2.5-coder");
  EXPECT_EQ(a.call.backend, "openai");
  EXPECT_EQ(a.call.request_sha256, std::string(64, 'a'));
  EXPECT_EQ(a.call.input_tokens, 3100);
  EXPECT_EQ(a.call.output_tokens, 900);
  EXPECT_FALSE(a.call.cached_input_tokens);
  EXPECT_EQ(a.call.reasoning_tokens, 12);
  EXPECT_DOUBLE_EQ(a.call.cost_usd.value_or(0), 0.0042);
  EXPECT_DOUBLE_EQ(a.call.latency_ms, 8123.5);
  EXPECT_FALSE(a.call.from_cache);
  EXPECT_EQ(a.call.status, "ok");
  EXPECT_FALSE(a.created_at.empty());
  StoredLlmCall const& b = (*calls)[1];
  EXPECT_FALSE(b.call.candidate);
  EXPECT_FALSE(b.call.input_tokens);
  EXPECT_FALSE(b.call.cost_usd);
  EXPECT_TRUE(b.call.from_cache);
  EXPECT_EQ(b.call.status, "error");
  EXPECT_EQ(b.call.error, "HTTP 500");
}

TEST(LlmCallsStore, BadRowsAndForeignCandidatesAreRefused) {
  test::TempDir dir;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store);
  auto run = store->create_run(some_run("softmax"));
  auto other = store->create_run(some_run("gemm"));
  ASSERT_TRUE(run && other);

  auto no_run = store->add_llm_call(RunId(999), some_call());
  ASSERT_FALSE(no_run);
  EXPECT_EQ(no_run.error().code, ErrorCode::not_found);
  EXPECT_NE(no_run.error().message.find("no run 999"), std::string::npos);

  LlmCallRecord bad = some_call();
  bad.status = "maybe";
  auto bad_status = store->add_llm_call(*run, bad);
  ASSERT_FALSE(bad_status);
  EXPECT_EQ(bad_status.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(bad_status.error().message.find("status: expected \"ok\" or \"error\""), std::string::npos);
  bad = some_call();
  bad.role.clear();
  EXPECT_FALSE(store->add_llm_call(*run, bad));

  Candidate candidate;
  candidate.key = CandidateKey("k1");
  candidate.source = "x";
  candidate.mode = "kernel";
  auto foreign = store->add_candidate(*other, candidate);
  ASSERT_TRUE(foreign);
  auto call = store->add_llm_call(*run, some_call());
  ASSERT_TRUE(call);
  auto linked = store->set_llm_call_candidate(*call, *foreign);
  ASSERT_FALSE(linked);
  EXPECT_NE(linked.error().message.find("its run has no candidate"), std::string::npos);
  EXPECT_FALSE(store->set_llm_call_candidate(LlmCallId(77), *foreign));
  auto with_foreign = some_call();
  with_foreign.candidate = CandidateId(12345);
  EXPECT_FALSE(store->add_llm_call(*run, with_foreign));
  EXPECT_FALSE(store->llm_calls_for_run(RunId(999)));
}

TEST(LlmCallsStore, AVersionFourDatabaseGainsTheTable) {
  test::TempDir dir;
  auto const path = dir.path() / "kopt.db";
  {
    auto store = Store::open(path);
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->create_run(some_run("softmax")));
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  // Back to version 4: without llm_calls (5, 6), the sessions of version 7, the verified bindings of 8 and
  // evaluations.ran_on of 9.
  ASSERT_EQ(sqlite3_exec(db,
                         "ALTER TABLE evaluations DROP COLUMN ran_on; "
                         "DROP TABLE verified_bindings; DROP TABLE llm_calls; DROP INDEX runs_by_session; "
                         "ALTER TABLE runs DROP COLUMN "
                         "session_id; ALTER TABLE runs DROP COLUMN session_strategy; ALTER TABLE runs DROP "
                         "COLUMN session_phase; DROP TABLE sessions; PRAGMA user_version = 4;",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  auto store = Store::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_GE(store_schema_version(), 5);
  auto calls = store->llm_calls_for_run(RunId(1));
  ASSERT_TRUE(calls) << calls.error().message;
  EXPECT_TRUE(calls->empty());
  EXPECT_TRUE(store->add_llm_call(RunId(1), some_call()));
}

}  // namespace llm_calls_store_test
}  // namespace kopt
