#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <vector>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/migrations.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace migration_test {

using test::raw_exec;
using test::raw_int;

std::int64_t table_count(std::filesystem::path const& path) {
  return raw_int(path,
                 "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name IN "
                 "('runs', 'candidates', 'evaluations', 'search_memory')");
}

TEST(StoreMigrations, NewFileIsCreatedWithItsDirectoryAtTheCurrentVersion) {
  test::TempDir dir;
  auto path = dir.path() / "project" / ".kopt" / "kopt.db";
  auto store = Store::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(store->path(), path);
  EXPECT_GE(store_schema_version(), 1);
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), store_schema_version());
  EXPECT_EQ(raw_int(path, "PRAGMA application_id"), store_detail::kApplicationId);
  EXPECT_EQ(table_count(path), 4);
}

TEST(StoreMigrations, OpensInWalMode) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  ASSERT_TRUE(Store::open(path));
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &statement, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<char const*>(sqlite3_column_text(statement, 0)), "wal");  // persistent
  sqlite3_finalize(statement);
  sqlite3_close(db);
}

TEST(StoreMigrations, VersionZeroDatabaseIsMigrated) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  raw_exec(path, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('kept');");
  ASSERT_EQ(raw_int(path, "PRAGMA user_version"), 0);
  auto store = Store::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), store_schema_version());
  EXPECT_EQ(table_count(path), 4);
  EXPECT_EQ(raw_int(path, "SELECT count(*) FROM notes"), 1);
  EXPECT_TRUE(store->create_run(test::sample_run()));
}

TEST(StoreMigrations, EmptyFileIsAVersionZeroDatabase) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  std::ofstream(path).close();
  auto store = Store::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), store_schema_version());
}

// kopt's own migrations followed by `extra` (for tests of what comes after the current version).
std::vector<store_detail::Migration> real_migrations_and(std::vector<store_detail::Migration> const& extra) {
  auto const real = store_detail::store_migrations();
  std::vector<store_detail::Migration> all(real.begin(), real.end());
  all.insert(all.end(), extra.begin(), extra.end());
  return all;
}

TEST(StoreMigrations, OnlyMissingMigrationsRunInOrder) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  ASSERT_TRUE(Store::open(path));  // at the current version
  int const current = store_schema_version();
  auto const migrations = real_migrations_and({
      store_detail::Migration{"extra table", "CREATE TABLE extra (x INTEGER); INSERT INTO extra VALUES (7);"},
      store_detail::Migration{"extra column", "ALTER TABLE extra ADD COLUMN y INTEGER DEFAULT 3;"},
  });
  auto connection = store_detail::open_connection(path);
  ASSERT_TRUE(connection) << connection.error().message;
  auto migrated = store_detail::apply_migrations(**connection, migrations);
  ASSERT_TRUE(migrated) << migrated.error().message;
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), current + 2);
  EXPECT_EQ(raw_int(path, "SELECT x + y FROM extra"), 10);  // both ran, the earlier ones were not re-run
  // Already current: nothing runs again (a re-run of the INSERT would make two rows).
  ASSERT_TRUE(store_detail::apply_migrations(**connection, migrations));
  EXPECT_EQ(raw_int(path, "SELECT count(*) FROM extra"), 1);
}

TEST(StoreMigrations, FailedMigrationLeavesThePreviousVersion) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  ASSERT_TRUE(Store::open(path));
  int const current = store_schema_version();
  auto const migrations = real_migrations_and({
      store_detail::Migration{"broken", "CREATE TABLE half (x INTEGER); SELECT * FROM no_such_table;"},
  });
  auto connection = store_detail::open_connection(path);
  ASSERT_TRUE(connection);
  auto migrated = store_detail::apply_migrations(**connection, migrations);
  ASSERT_FALSE(migrated);
  EXPECT_NE(migrated.error().message.find("migration to schema version " + std::to_string(current + 1)),
            std::string::npos)
      << migrated.error().message;
  EXPECT_NE(migrated.error().message.find(path.string()), std::string::npos);
  connection->reset();
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), current);
  EXPECT_EQ(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'half'"), 0);  // rolled back
}

TEST(StoreMigrations, VersionOneDatabaseGainsTheMemoryRecordedColumn) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  {
    auto connection = store_detail::open_connection(path);
    ASSERT_TRUE(connection);
    ASSERT_TRUE(store_detail::apply_migrations(**connection, store_detail::store_migrations().first(1)));
  }
  raw_exec(path,
           "INSERT INTO runs (task_name, task_dir, options, seed, budget, status, started_at) "
           "VALUES ('t', '/t', '{}', 1, '{}', 'finished', '2026-11-30T00:00:00Z')");
  ASSERT_EQ(raw_int(path, "PRAGMA user_version"), 1);
  auto store = Store::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(raw_int(path, "SELECT memory_recorded FROM runs WHERE id = 1"), 0);  // old runs: not yet
  ASSERT_TRUE(store->record_search_memory(RunId(1), "f", {{"A:+1", 0.5}}));
  EXPECT_EQ(raw_int(path, "SELECT memory_recorded FROM runs WHERE id = 1"), 1);
}

TEST(StoreMigrations, VersionThreeDatabaseGainsTheObjectiveScoreColumn) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  {
    auto connection = store_detail::open_connection(path);
    ASSERT_TRUE(connection);
    ASSERT_TRUE(store_detail::apply_migrations(**connection, store_detail::store_migrations().first(3)));
  }
  raw_exec(
      path,
      "INSERT INTO runs (task_name, task_dir, options, seed, budget, status) "
      "VALUES ('t', '/t', '{}', 1, '{}', 'finished');"
      "INSERT INTO candidates (run_id, content_key, source, knobs, flags, action, mode) "
      "VALUES (1, 'k1', 's', '{}', '[]', '', 'kernel');"
      "INSERT INTO evaluations (candidate_id, status, message, device_name, device_uuid, driver, toolkit, "
      "tier, geomean_speedup, sizes) VALUES (1, 'ok', '', 'd', 'u', '1', 't', 'screen', 1.5, '[]');");
  ASSERT_EQ(raw_int(path, "PRAGMA user_version"), 3);
  auto store = Store::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), store_schema_version());
  EXPECT_EQ(raw_int(path, "SELECT count(*) FROM evaluations WHERE objective_score IS NULL"), 1);
  auto history = store->load_run(RunId(1));
  ASSERT_TRUE(history) << history.error().message;
  ASSERT_EQ(history->evaluations.size(), 1u);
  EXPECT_FALSE(history->evaluations[0].evaluation.objective_score);  // old rows: ranked by speedup
  EXPECT_EQ(history->evaluations[0].evaluation.geomean_speedup, 1.5);
}

TEST(StoreMigrations, BestCandidateRanksByTheObjectiveScoreWhenSet) {
  test::TempDir dir;
  auto store = Store::open(dir.path() / "kopt.db");
  ASSERT_TRUE(store) << store.error().message;
  auto run = store->create_run(test::sample_run());
  ASSERT_TRUE(run);
  auto fast = store->add_candidate(*run, test::sample_candidate("fast"));
  auto frugal = store->add_candidate(*run, test::sample_candidate("frugal"));
  auto plain = store->add_candidate(*run, test::sample_candidate("plain"));
  ASSERT_TRUE(fast && frugal && plain);
  EvaluationRecord fast_eval = test::sample_evaluation(3.0);
  fast_eval.objective_score = 1.2;
  EvaluationRecord frugal_eval = test::sample_evaluation(1.5);
  frugal_eval.objective_score = 2.5;
  ASSERT_TRUE(store->add_evaluation(*fast, fast_eval));
  ASSERT_TRUE(store->add_evaluation(*frugal, frugal_eval));
  ASSERT_TRUE(store->add_evaluation(*plain, test::sample_evaluation(2.0)));  // no score: its speedup
  auto best = store->best_candidate(*run);
  ASSERT_TRUE(best && *best);
  EXPECT_EQ((*best)->candidate.id, *frugal);
  EXPECT_EQ((*best)->evaluation.evaluation.objective_score, 2.5);
  EXPECT_EQ((*best)->evaluation.evaluation.geomean_speedup, 1.5);
}

TEST(StoreMigrations, NewerSchemaIsAClearError) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  ASSERT_TRUE(Store::open(path));
  raw_exec(path, "PRAGMA user_version = 99");
  auto store = Store::open(path);
  ASSERT_FALSE(store);
  auto const& message = store.error().message;
  EXPECT_NE(message.find(path.string()), std::string::npos) << message;
  EXPECT_NE(message.find("schema version 99"), std::string::npos) << message;
  EXPECT_NE(message.find("up to " + std::to_string(store_schema_version())), std::string::npos) << message;
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), 99);  // untouched
}

TEST(StoreMigrations, ForeignSqliteDatabasesAreRefused) {
  test::TempDir dir;
  auto other_app = dir.path() / "other.db";
  raw_exec(other_app, "PRAGMA application_id = 12345; CREATE TABLE t (x);");
  auto store = Store::open(other_app);
  ASSERT_FALSE(store);
  EXPECT_NE(store.error().message.find("not a kopt store"), std::string::npos) << store.error().message;
  EXPECT_NE(store.error().message.find(other_app.string()), std::string::npos);

  auto versioned = dir.path() / "versioned.db";
  raw_exec(versioned, "PRAGMA user_version = 1; CREATE TABLE runs (x);");
  auto second = Store::open(versioned);
  ASSERT_FALSE(second);
  EXPECT_NE(second.error().message.find("not a kopt store"), std::string::npos) << second.error().message;
}

TEST(StoreMigrations, DefaultPathIsUnderTheCurrentDirectory) {
  EXPECT_EQ(default_store_path(), std::filesystem::current_path() / ".kopt" / "kopt.db");
}

}  // namespace migration_test
}  // namespace kopt
