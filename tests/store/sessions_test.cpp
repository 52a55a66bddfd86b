// Sessions (docs/store.md, "sessions"): the runs of one library `kopt optimize`, grouped.
#include <gtest/gtest.h>

#include "kopt/store.hpp"
#include "store/store_fixtures.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace sessions_test {

struct StoreSessions : ::testing::Test {
  void SetUp() override {
    auto opened = Store::open(dir.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store.emplace(std::move(*opened));
  }
  SessionRecord library_session() {
    return SessionRecord{"library", "softmax", "/tasks/softmax", {{"budget", 64}, {"search", "mcts"}}};
  }
  RunId session_run(SessionId session, std::string strategy, std::string phase) {
    kopt::Run run = test::sample_run();
    run.session = SessionPart{session, std::move(strategy), std::move(phase)};
    auto id = store->create_run(run);
    EXPECT_TRUE(id) << id.error().message;
    return id ? *id : RunId(0);
  }
  // An ok evaluation of a new candidate of `run`.
  CandidateId evaluated(RunId run, std::string key, double speedup, std::string tier) {
    auto candidate = store->add_candidate(run, test::sample_candidate(std::move(key)));
    EXPECT_TRUE(candidate) << candidate.error().message;
    auto evaluation = store->add_evaluation(
        *candidate, test::sample_evaluation(speedup, "GPU-1111", "13.0", std::move(tier)));
    EXPECT_TRUE(evaluation) << evaluation.error().message;
    return *candidate;
  }
  test::TempDir dir;
  std::optional<Store> store;
};

TEST_F(StoreSessions, ASessionRecordsItsRunsAndTheirParts) {
  auto session = store->create_session(library_session());
  ASSERT_TRUE(session) << session.error().message;
  auto const loose = store->create_run(test::sample_run("gemm"));
  ASSERT_TRUE(loose);
  RunId const a = session_run(*session, "warp_per_row", "screen");
  RunId const b = session_run(*session, "block_per_row", "screen");
  RunId const c = session_run(*session, "warp_per_row", "deepen");
  ASSERT_TRUE(store->finish_session(*session, RunStatus::finished));

  auto loaded = store->load_session(*session);
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(loaded->session.kind, "library");
  EXPECT_EQ(loaded->session.task_name, "softmax");
  EXPECT_EQ(loaded->session.options["budget"], 64);
  EXPECT_EQ(loaded->status, RunStatus::finished);
  EXPECT_TRUE(loaded->finished_at);
  EXPECT_EQ(loaded->runs, (std::vector<RunId>{a, b, c}));

  auto runs = store->list_runs();
  ASSERT_TRUE(runs);
  ASSERT_EQ(runs->size(), 4u);
  EXPECT_FALSE((*runs)[0].run.session);  // the run of no session
  ASSERT_TRUE((*runs)[3].run.session);
  EXPECT_EQ((*runs)[3].run.session->session, *session);
  EXPECT_EQ((*runs)[3].run.session->strategy, "warp_per_row");
  EXPECT_EQ((*runs)[3].run.session->phase, "deepen");

  auto sessions = store->list_sessions();
  ASSERT_TRUE(sessions);
  ASSERT_EQ(sessions->size(), 1u);
  EXPECT_EQ(sessions->front().runs.size(), 3u);
}

TEST_F(StoreSessions, UnknownSessionsAreErrorsNamingTheStore) {
  auto missing = store->load_session(SessionId(9));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  EXPECT_NE(missing.error().message.find("session 9 is not in " + store->path().string()), std::string::npos)
      << missing.error().message;
  kopt::Run run = test::sample_run();
  run.session = SessionPart{SessionId(9), "s", "screen"};
  auto created = store->create_run(run);
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().code, ErrorCode::not_found);
  EXPECT_FALSE(store->finish_session(SessionId(9), RunStatus::finished));
  auto session = store->create_session(library_session());
  ASSERT_TRUE(session);
  EXPECT_FALSE(store->finish_session(*session, RunStatus::running));
}

TEST_F(StoreSessions, TheBestIsConfirmedFirstThenTheBestScreenAcrossRuns) {
  auto session = store->create_session(library_session());
  ASSERT_TRUE(session);
  RunId const a = session_run(*session, "warp_per_row", "screen");
  RunId const b = session_run(*session, "block_per_row", "screen");
  auto none = store->best_verified_candidate(*session);
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);

  evaluated(a, "a1", 1.5, "screen");
  CandidateId const b1 = evaluated(b, "b1", 2.5, "screen");
  auto screen = store->best_verified_candidate(*session);
  ASSERT_TRUE(screen && *screen);
  EXPECT_EQ((*screen)->candidate.id, b1);
  EXPECT_EQ((*screen)->candidate.run, b);

  RunId const deepen = session_run(*session, "warp_per_row", "deepen");
  CandidateId const confirmed = evaluated(deepen, "a2", 1.8, "confirm");
  auto best = store->best_verified_candidate(*session);
  ASSERT_TRUE(best && *best);
  EXPECT_EQ((*best)->candidate.id, confirmed) << "a confirmed candidate beats a faster screen-only one";
  EXPECT_EQ((*best)->evaluation.evaluation.tier, "confirm");

  // Runs of no session never count.
  auto loose = store->create_run(test::sample_run());
  ASSERT_TRUE(loose);
  evaluated(*loose, "z", 9.0, "confirm");
  auto still = store->best_verified_candidate(*session);
  ASSERT_TRUE(still && *still);
  EXPECT_EQ((*still)->candidate.id, confirmed);
}

}  // namespace sessions_test
}  // namespace kopt
