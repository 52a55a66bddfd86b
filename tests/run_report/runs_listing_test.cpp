// `kopt runs`' renderers: the listing as a table (sessions with their runs indented, the runs of no session
// between them by start time) and as kopt.runs/2 JSON.
#include <gtest/gtest.h>

#include "kopt/run_report.hpp"

namespace kopt {
namespace runs_listing_test {

RunSummary run_summary(std::int64_t id, std::string const& started_at, std::string const& strategy) {
  RunSummary run;
  run.id = RunId(id);
  run.task_name = "vector_add";
  run.task_dir = "/tasks/vector_add";
  run.started_at = started_at;
  run.status = "finished";
  run.finished_at = started_at;
  run.strategy = strategy;
  run.seed = 3;
  run.candidates = 10;
  run.evaluations = 11;
  run.best_screen_speedup = 2.5;
  return run;
}

RunsListing listing_with_a_session() {
  RunsListing listing;
  listing.store = "/proj/.kopt/kopt.db";
  listing.runs = {run_summary(1, "2026-12-01T10:00:00Z", "random"),
                  run_summary(4, "2026-12-01T12:00:00Z", "exhaustive")};
  SessionSummary session;
  session.id = SessionId(1);
  session.kind = "library";
  session.task_name = "vector_add";
  session.status = "finished";
  session.started_at = "2026-12-01T11:00:00Z";
  RunSummary part = run_summary(2, "2026-12-01T11:00:01Z", "mcts");
  part.session = SessionId(1);
  part.session_strategy = "vector_add_float4";
  part.session_phase = "screen";
  part.best_confirmed_speedup = 2.25;
  session.runs = {part};
  session.best_run = RunId(2);
  session.best_strategy = "vector_add_float4";
  session.best_tier = "confirm";
  session.best_speedup = 2.25;
  listing.sessions = {session};
  return listing;
}

TEST(RunsListing, JsonHasTheSessionsWithTheirRunsAndTheRunsOfNoSession) {
  nlohmann::json const json = runs_to_json(listing_with_a_session());
  EXPECT_EQ(json["schema"], "kopt.runs/2");
  EXPECT_EQ(json["store"], "/proj/.kopt/kopt.db");
  ASSERT_EQ(json["runs"].size(), 2u);
  EXPECT_EQ(json["runs"][0]["id"], 1);
  EXPECT_EQ(json["runs"][0]["task"], "vector_add");
  EXPECT_TRUE(json["runs"][0]["session"].is_null());
  EXPECT_TRUE(json["runs"][0]["best_confirmed_speedup"].is_null());
  EXPECT_FALSE(json["runs"][0].contains("phase")) << "only a session's runs have a part";
  ASSERT_EQ(json["sessions"].size(), 1u);
  auto const& session = json["sessions"][0];
  EXPECT_EQ(session["best"]["run"], 2);
  EXPECT_EQ(session["best"]["tier"], "confirm");
  EXPECT_DOUBLE_EQ(session["best"]["speedup"].get<double>(), 2.25);
  ASSERT_EQ(session["runs"].size(), 1u);
  EXPECT_EQ(session["runs"][0]["session"], 1);
  EXPECT_EQ(session["runs"][0]["library_strategy"], "vector_add_float4");
  EXPECT_EQ(session["runs"][0]["phase"], "screen");
}

TEST(RunsListing, TextInterleavesSessionsAndRunsOldestFirst) {
  std::string const text = render_runs(listing_with_a_session());
  std::size_t const header = text.find("candidates");
  std::size_t const first = text.find("random");
  std::size_t const session =
      text.find("session 1: vector_add, finished, 1 run, best 2.25x on the confirm tier");
  std::size_t const last = text.find("exhaustive");
  ASSERT_NE(header, std::string::npos) << text;
  ASSERT_NE(first, std::string::npos) << text;
  ASSERT_NE(session, std::string::npos) << text;
  ASSERT_NE(last, std::string::npos) << text;
  EXPECT_LT(header, first);
  EXPECT_LT(first, session) << "run 1 started before the session";
  EXPECT_LT(session, last) << "run 4 started after it";
  EXPECT_NE(text.find("\n     1  vector_add"), std::string::npos) << text;
  EXPECT_NE(text.find("\n       2  vector_add"), std::string::npos)
      << "the session's run is indented: " << text;
  EXPECT_NE(text.find("screen vector_add_float4"), std::string::npos) << "the session's run names its part";
  EXPECT_NE(text.find("2.50x"), std::string::npos) << text;
  EXPECT_EQ(render_runs(RunsListing{"/proj/.kopt/kopt.db", {}, {}}), "no runs in /proj/.kopt/kopt.db\n");
}

}  // namespace runs_listing_test
}  // namespace kopt
