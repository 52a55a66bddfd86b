// Schema version 6: llm_calls.rationale, added to a version 5 store without losing its rows.
#include <gtest/gtest.h>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/migrations.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace llm_rationale_migration_test {

using test::raw_exec;
using test::raw_int;

TEST(StoreMigrations, VersionFiveLlmCallsKeepTheirRowsAndGainAnEmptyRationale) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  {
    auto connection = store_detail::open_connection(path);
    ASSERT_TRUE(connection);
    ASSERT_TRUE(store_detail::apply_migrations(**connection, store_detail::store_migrations().first(5)));
  }
  raw_exec(
      path,
      "INSERT INTO runs (task_name, task_dir, options, seed, budget, status) "
      "VALUES ('t', '/t', '{}', 1, '{}', 'finished');"
      "INSERT INTO llm_calls (run_id, role, purpose, model, backend, request_sha256, input_tokens, "
      "latency_ms, status, error) VALUES (1, 'generator', 'x, draft', 'm', 'replay', 'abc', 12, 3.5, "
      "'ok', '');"
      "INSERT INTO llm_calls (run_id, role, purpose, model, backend, request_sha256, latency_ms, status, "
      "error) VALUES (1, 'coder', 'x, repair 1', 'm', 'replay', 'def', 1.0, 'error', 'timed out');");
  ASSERT_EQ(raw_int(path, "PRAGMA user_version"), 5);
  auto store = Store::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), store_schema_version());
  EXPECT_GE(store_schema_version(), 6);
  auto calls = store->llm_calls_for_run(RunId(1));
  ASSERT_TRUE(calls) << calls.error().message;
  ASSERT_EQ(calls->size(), 2U);
  EXPECT_EQ((*calls)[0].call.purpose, "x, draft");
  EXPECT_EQ((*calls)[0].call.input_tokens, 12);
  EXPECT_EQ((*calls)[0].call.rationale, "");
  EXPECT_EQ((*calls)[1].call.error, "timed out");

  LlmCallRecord record;
  record.role = "coder";
  record.rationale = "Keep one warp per row; fix the \xce\xbb reduction.";
  auto added = store->add_llm_call(RunId(1), record);
  ASSERT_TRUE(added) << added.error().message;
  calls = store->llm_calls_for_run(RunId(1));
  ASSERT_TRUE(calls) << calls.error().message;
  ASSERT_EQ(calls->size(), 3U);
  EXPECT_EQ((*calls)[2].call.rationale, record.rationale);
}

}  // namespace llm_rationale_migration_test
}  // namespace kopt
