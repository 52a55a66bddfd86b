// How a store is opened (docs/store.md, "Opening a store"): readers create nothing and never migrate the
// file; writers given a path need its folder; the default access creates folders.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/migrations.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace open_access_test {

namespace fs = std::filesystem;
using test::raw_exec;
using test::raw_int;

std::vector<std::string> names_in(fs::path const& folder) {
  std::vector<std::string> names;
  for (auto const& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(StoreOpenAccess, ReadOnlyOpenOfAMissingFileCreatesNothingAndNamesThePath) {
  test::TempDir dir;
  auto const path = dir.path() / ".kopt" / "kopt.db";
  auto store = Store::open(path, StoreAccess::read_only);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::not_found);
  EXPECT_NE(store.error().message.find(path.string()), std::string::npos) << store.error().message;
  EXPECT_TRUE(names_in(dir.path()).empty()) << "a reader created " << names_in(dir.path()).front();
}

TEST(StoreOpenAccess, ReadOnlyOpenReadsAnExistingStoreAndCannotWrite) {
  test::TempDir dir;
  auto const path = dir.path() / "kopt.db";
  {
    auto writer = Store::open(path, StoreAccess::read_write);
    ASSERT_TRUE(writer) << writer.error().message;
    auto run = writer->create_run(test::sample_run());
    ASSERT_TRUE(run);
    ASSERT_TRUE(writer->add_candidate(*run, test::sample_candidate("k1")));
  }
  auto reader = Store::open(path, StoreAccess::read_only);
  ASSERT_TRUE(reader) << reader.error().message;
  auto runs = reader->list_runs();
  ASSERT_TRUE(runs) << runs.error().message;
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ(runs->front().run.task_name, "softmax");
  EXPECT_FALSE(runs->front().run.session);
  auto write = reader->create_run(test::sample_run());
  ASSERT_FALSE(write) << "a read-only store wrote a run";
  EXPECT_NE(write.error().message.find(path.string()), std::string::npos) << write.error().message;
}

TEST(StoreOpenAccess, ReadOnlyOpenSeesWhatAnOpenWriterCommitted) {
  test::TempDir dir;
  auto const path = dir.path() / "kopt.db";
  auto writer = Store::open(path);
  ASSERT_TRUE(writer);
  ASSERT_TRUE(writer->create_run(test::sample_run("first")));
  auto reader = Store::open(path, StoreAccess::read_only);
  ASSERT_TRUE(reader) << reader.error().message;
  ASSERT_TRUE(writer->create_run(test::sample_run("second")));
  auto runs = reader->list_runs();
  ASSERT_TRUE(runs) << runs.error().message;
  EXPECT_EQ(runs->size(), 2u);
}

TEST(StoreOpenAccess, AWriterGivenAPathNeedsItsFolder) {
  test::TempDir dir;
  auto const path = dir.path() / "typo" / "x.db";
  auto store = Store::open(path, StoreAccess::read_write);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().code, ErrorCode::not_found);
  EXPECT_NE(store.error().message.find((dir.path() / "typo").string()), std::string::npos)
      << store.error().message;
  EXPECT_FALSE(fs::exists(dir.path() / "typo"));
  // In an existing folder the file is created.
  auto created = Store::open(dir.path() / "x.db", StoreAccess::read_write);
  ASSERT_TRUE(created) << created.error().message;
  EXPECT_TRUE(fs::exists(dir.path() / "x.db"));
}

TEST(StoreOpenAccess, TheDefaultAccessCreatesTheFolders) {
  test::TempDir dir;
  auto const path = dir.path() / "project" / ".kopt" / "kopt.db";
  ASSERT_TRUE(Store::open(path, StoreAccess::read_write_create_folders));
  EXPECT_TRUE(fs::exists(path));
}

TEST(StoreOpenAccess, ReadOnlyOpenOfAnOlderSchemaReadsAMigratedCopyAndLeavesTheFile) {
  test::TempDir dir;
  auto const path = dir.path() / "kopt.db";
  int const older = 6;  // before sessions (version 7) and verified bindings (8)
  {
    auto connection = store_detail::open_connection(path);
    ASSERT_TRUE(connection);
    ASSERT_TRUE(store_detail::apply_migrations(
        **connection, store_detail::store_migrations().first(static_cast<std::size_t>(older))));
  }
  raw_exec(path,
           "INSERT INTO runs (task_name, task_dir, options, seed, budget, status, started_at) "
           "VALUES ('old', '/t', '{\"strategy\": \"mcts\"}', 1, '{}', 'finished', '2026-11-30T00:00:00Z')");
  auto reader = Store::open(path, StoreAccess::read_only);
  ASSERT_TRUE(reader) << reader.error().message;
  auto runs = reader->list_runs();
  ASSERT_TRUE(runs) << runs.error().message;
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ(runs->front().run.task_name, "old");
  EXPECT_FALSE(runs->front().run.session);
  auto sessions = reader->list_sessions();
  ASSERT_TRUE(sessions) << sessions.error().message;
  EXPECT_TRUE(sessions->empty());
  EXPECT_EQ(reader->path(), path);
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), older) << "a reader migrated the file";
  EXPECT_EQ(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'sessions'"), 0);
  EXPECT_EQ(raw_int(path, "SELECT count(*) FROM sqlite_schema WHERE name = 'verified_bindings'"), 0);
  auto bindings = reader->verified_bindings("old:0000");
  ASSERT_TRUE(bindings) << bindings.error().message;
  EXPECT_TRUE(bindings->empty());
}

TEST(StoreOpenAccess, ReadOnlyOpenRefusesANewerSchema) {
  test::TempDir dir;
  auto const path = dir.path() / "kopt.db";
  ASSERT_TRUE(Store::open(path));
  raw_exec(path, "PRAGMA user_version = " + std::to_string(store_schema_version() + 1));
  auto reader = Store::open(path, StoreAccess::read_only);
  ASSERT_FALSE(reader);
  EXPECT_NE(reader.error().message.find("newer kopt"), std::string::npos) << reader.error().message;
  EXPECT_NE(reader.error().message.find(path.string()), std::string::npos);
}

// A negative schema version (found by fuzzing: every command that opened such a store died with
// std::bad_alloc, the migrations indexed out of range) is a clear error, for writers and readers.
TEST(StoreOpenAccess, ANegativeSchemaVersionIsAClearError) {
  test::TempDir dir;
  auto const path = dir.path() / "kopt.db";
  ASSERT_TRUE(Store::open(path));
  raw_exec(path, "PRAGMA user_version = -7");
  for (StoreAccess access : {StoreAccess::read_write, StoreAccess::read_only}) {
    auto store = Store::open(path, access);
    ASSERT_FALSE(store);
    EXPECT_EQ(store.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(store.error().message.find("schema version -7 (PRAGMA user_version) is not one kopt writes"),
              std::string::npos)
        << store.error().message;
    EXPECT_NE(store.error().message.find(path.string()), std::string::npos);
  }
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), -7) << "the file is left as it was";
}

TEST(StoreOpenAccess, AWriterMigratesAnOlderStoreWhoseRunsHaveNoSession) {
  test::TempDir dir;
  auto const path = dir.path() / "kopt.db";
  int const older = store_schema_version() - 1;
  {
    auto connection = store_detail::open_connection(path);
    ASSERT_TRUE(connection);
    ASSERT_TRUE(store_detail::apply_migrations(
        **connection, store_detail::store_migrations().first(static_cast<std::size_t>(older))));
  }
  raw_exec(path,
           "INSERT INTO runs (task_name, task_dir, options, seed, budget, status, started_at) "
           "VALUES ('old', '/t', '{}', 1, '{}', 'finished', '2026-11-30T00:00:00Z')");
  auto store = Store::open(path, StoreAccess::read_write);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), store_schema_version());
  auto history = store->load_run(RunId(1));
  ASSERT_TRUE(history) << history.error().message;
  EXPECT_FALSE(history->run.run.session);
  auto sessions = store->list_sessions();
  ASSERT_TRUE(sessions);
  EXPECT_TRUE(sessions->empty());
}

}  // namespace open_access_test
}  // namespace kopt
