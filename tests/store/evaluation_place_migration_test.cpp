// Schema version 9: evaluations.ran_on (where each evaluation ran), added to a version 8 store: its
// evaluations keep their rows and read back with an empty place; new ones keep the place they are given.
#include <gtest/gtest.h>

#include "kopt/store.hpp"
#include "store/connection.hpp"
#include "store/migrations.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace evaluation_place_migration_test {

using test::raw_exec;
using test::raw_int;

TEST(StoreMigrations, VersionEightEvaluationsGainAnEmptyPlaceAndNewOnesKeepTheirs) {
  test::TempDir dir;
  auto path = dir.path() / "kopt.db";
  {
    auto connection = store_detail::open_connection(path);
    ASSERT_TRUE(connection);
    ASSERT_TRUE(store_detail::apply_migrations(**connection, store_detail::store_migrations().first(8)));
  }
  raw_exec(
      path,
      "INSERT INTO runs (task_name, task_dir, options, seed, budget, status) "
      "VALUES ('t', '/t', '{}', 1, '{}', 'finished');"
      "INSERT INTO candidates (run_id, content_key, source, knobs, flags, action, mode) "
      "VALUES (1, 'k1', 'src', '{}', '[]', '', 'kernel');"
      "INSERT INTO evaluations (candidate_id, status, message, device_name, device_uuid, driver, toolkit, "
      "tier, geomean_speedup, sizes) VALUES (1, 'ok', '', 'NVIDIA H200', 'GPU-0', '580', '13.0', 'screen', "
      "2.0, '[]');");
  ASSERT_EQ(raw_int(path, "PRAGMA user_version"), 8);
  auto store = Store::open(path);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(raw_int(path, "PRAGMA user_version"), store_schema_version());
  EXPECT_GE(store_schema_version(), 9);
  auto history = store->load_run(RunId(1));
  ASSERT_TRUE(history) << history.error().message;
  ASSERT_EQ(history->evaluations.size(), 1U);
  EXPECT_EQ(history->evaluations[0].evaluation.ran_on, nlohmann::json::object());

  EvaluationRecord record;
  record.device_uuid = "GPU-0";  // the run's target
  record.tier = "screen";
  record.ran_on = {{"host", "node7"},
                   {"worker", "node7:gpu3"},
                   {"device_index", 3},
                   {"device_uuid", "GPU-3"},
                   {"device_name", "NVIDIA H200"}};
  auto added = store->add_evaluation(CandidateId(1), record);
  ASSERT_TRUE(added) << added.error().message;
  history = store->load_run(RunId(1));
  ASSERT_TRUE(history) << history.error().message;
  ASSERT_EQ(history->evaluations.size(), 2U);
  EXPECT_EQ(history->evaluations[1].evaluation.ran_on, record.ran_on);
  EXPECT_EQ(history->evaluations[1].evaluation.device_uuid, "GPU-0");
}

}  // namespace evaluation_place_migration_test
}  // namespace kopt
