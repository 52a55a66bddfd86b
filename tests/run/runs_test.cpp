// Reading runs back: how a run was asked, the `kopt runs` listing with sessions, `kopt export`, and a run's
// evaluations by configuration (what a replay answers with).
#include "kopt/runs.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "run/run_fixtures.hpp"

namespace kopt {
namespace runs_test {

using test::RunStore;

std::string read_file(std::filesystem::path const& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(RunRequest, ReadsTheSharedFieldsAndNamesTheFieldThatIsWrong) {
  nlohmann::json options = test::optimize_options("exhaustive", "src");
  options["objective"] = "energy";
  auto request = run_request_from_json(options, RunId(3));
  ASSERT_TRUE(request) << request.error().message;
  EXPECT_EQ(request->strategy, "exhaustive");
  EXPECT_EQ(request->source, "src");
  EXPECT_EQ(request->source_path, "k.cu");
  EXPECT_EQ(request->flags, std::vector<std::string>{"-O3"});
  EXPECT_EQ(request->objective, OptimizeObjective::energy);
  EXPECT_EQ(request->document, options) << "what one kind of run adds stays readable";

  nlohmann::json older = options;
  older.erase("objective");
  older.erase("search_memory");
  auto old = run_request_from_json(older, RunId(3));
  ASSERT_TRUE(old) << old.error().message;
  EXPECT_EQ(old->objective, OptimizeObjective::runtime) << "runs of older kopt optimised runtime";
  EXPECT_FALSE(old->search_memory);

  auto message_of = [](nlohmann::json const& json) {
    auto read = run_request_from_json(json, RunId(3));
    EXPECT_FALSE(read);
    return read ? std::string() : read.error().message;
  };
  nlohmann::json bad = options;
  bad["schema"] = "kopt.other/1";
  EXPECT_NE(message_of(bad).find("run 3: options.schema: expected \"kopt.optimize/1\""), std::string::npos);
  bad = options;
  bad.erase("source");
  EXPECT_NE(message_of(bad).find("options.source"), std::string::npos);
  bad = options;
  bad["flags"] = {"-O3", 2};
  EXPECT_NE(message_of(bad).find("options.flags: expected an array of strings"), std::string::npos);
  bad = options;
  bad["objective"] = "watts";
  EXPECT_NE(message_of(bad).find("options.objective"), std::string::npos);
}

TEST_F(RunStore, RunInfoCarriesTheSeedAndBudgetOfTheRow) {
  auto log = RunLog::create(*store, test::run_row("greedy", 11), "");
  ASSERT_TRUE(log) << log.error().message;
  auto info = load_run_info(*store, log->id());
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_EQ(info->status, "running");
  EXPECT_EQ(info->task_name, "vector_add");
  EXPECT_EQ(info->task_dir, "/tasks/vector_add");
  EXPECT_EQ(info->request.strategy, "greedy");
  EXPECT_EQ(info->request.seed, 11u);
  EXPECT_EQ(info->request.max_evaluations, 20u);
  EXPECT_DOUBLE_EQ(info->request.max_wall_seconds, 60.0);

  auto missing = load_run_info(*store, RunId(99));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  EXPECT_EQ(missing.error().message, "run 99 is not in " + store->path().string());
}

TEST_F(RunStore, RunsAreListedWithTheirSessionsAndBestCandidates) {
  auto alone = RunLog::create(*store, test::run_row("random"), "");
  ASSERT_TRUE(alone) << alone.error().message;
  record(*alone, test::candidate("64"), test::ok_evaluation(1.5));
  ASSERT_TRUE(alone->finish(true));

  SessionRecord session_record;
  session_record.task_name = "vector_add";
  session_record.task_dir = "/tasks/vector_add";
  auto session = store->create_session(session_record);
  ASSERT_TRUE(session) << session.error().message;
  kopt::Run screen_row = test::run_row("mcts");
  screen_row.session = SessionPart{*session, "vector_add_float4", "screen"};
  auto screen = RunLog::create(*store, screen_row, "");
  ASSERT_TRUE(screen) << screen.error().message;
  record(*screen, test::candidate("128"), test::ok_evaluation(2.0));
  record(*screen, test::candidate("256"), test::ok_evaluation(2.5));
  record(*screen, test::candidate("256"), test::ok_evaluation(2.4, "confirm"));

  auto listing = list_runs_and_sessions(*store);
  ASSERT_TRUE(listing) << listing.error().message;
  EXPECT_EQ(listing->store, store->path().string());
  ASSERT_EQ(listing->runs.size(), 1u) << "the run of no session";
  RunSummary const& run = listing->runs[0];
  EXPECT_EQ(run.status, "finished");
  EXPECT_EQ(run.strategy, "random");
  EXPECT_EQ(run.candidates, 1u);
  EXPECT_EQ(run.best_screen_speedup, 1.5);
  EXPECT_FALSE(run.best_confirmed_speedup);
  ASSERT_EQ(listing->sessions.size(), 1u);
  SessionSummary const& listed = listing->sessions[0];
  ASSERT_EQ(listed.runs.size(), 1u);
  EXPECT_EQ(listed.runs[0].candidates, 2u);
  EXPECT_EQ(listed.runs[0].evaluations, 3u);
  EXPECT_EQ(listed.runs[0].session_strategy, "vector_add_float4");
  EXPECT_EQ(listed.runs[0].best_screen_speedup, 2.5);
  EXPECT_EQ(listed.runs[0].best_confirmed_speedup, 2.4);
  EXPECT_EQ(listed.best_run, screen->id());
  EXPECT_EQ(listed.best_tier, "confirm") << "the confirm tier first";
  EXPECT_EQ(listed.best_strategy, "vector_add_float4");
  EXPECT_EQ(listed.best_speedup, 2.4);

  auto summaries = summarise_runs(*store);
  ASSERT_TRUE(summaries) << summaries.error().message;
  EXPECT_EQ(summaries->size(), 2u) << "every run, sessions or not";
}

TEST_F(RunStore, ExportWritesTheBestVerifiedSourceConfirmTierFirst) {
  auto log = RunLog::create(*store, test::run_row("mcts"), "");
  ASSERT_TRUE(log) << log.error().message;
  CandidateInput const fastest_on_screen = test::candidate("512");
  CandidateInput const confirmed = test::candidate("256");
  record(*log, fastest_on_screen, test::ok_evaluation(3.0));
  record(*log, confirmed, test::ok_evaluation(2.5));
  CandidateId const confirmed_id = record(*log, confirmed, test::ok_evaluation(2.4, "confirm"));

  auto const out = dir.path() / "best.cu";
  auto exported = export_best(*store, log->id(), out);
  ASSERT_TRUE(exported) << exported.error().message;
  EXPECT_EQ(exported->candidate, confirmed_id);
  EXPECT_EQ(exported->tier, "confirm");
  EXPECT_DOUBLE_EQ(exported->geomean_speedup, 2.4);
  EXPECT_EQ(exported->knobs, nlohmann::json({{"BLOCK", "256"}}));
  EXPECT_EQ(read_file(out), confirmed.source);

  auto missing = export_best(*store, RunId(42), out);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);

  auto unwritable = export_best(*store, log->id(), dir.path() / "no" / "such" / "folder.cu");
  ASSERT_FALSE(unwritable);
  EXPECT_EQ(unwritable.error().code, ErrorCode::io_error);
}

TEST_F(RunStore, ExportOfARunOrSessionWithoutAVerifiedCandidateFails) {
  auto log = RunLog::create(*store, test::run_row("mcts"), "");
  ASSERT_TRUE(log) << log.error().message;
  record(*log, test::candidate("128"), test::failed_evaluation(CandidateStatus::wrong_output, "bad"));
  auto exported = export_best(*store, log->id(), dir.path() / "none.cu");
  ASSERT_FALSE(exported);
  EXPECT_EQ(exported.error().code, ErrorCode::not_found);
  EXPECT_NE(exported.error().message.find("no candidate passed verification"), std::string::npos);

  auto session = store->create_session(SessionRecord{});
  ASSERT_TRUE(session) << session.error().message;
  auto empty_session = export_session_best(*store, *session, dir.path() / "none.cu");
  ASSERT_FALSE(empty_session);
  EXPECT_NE(empty_session.error().message.find("session " + std::to_string(session->value()) + " (0 runs)"),
            std::string::npos)
      << empty_session.error().message;
}

TEST_F(RunStore, ARecordingHoldsTheNewestEvaluationPerConfigurationOnOneTier) {
  auto log = RunLog::create(*store, test::run_row("exhaustive"), "");
  ASSERT_TRUE(log) << log.error().message;
  record(*log, test::candidate("128"), test::ok_evaluation(2.0));
  record(*log, test::candidate("256"), test::failed_evaluation(CandidateStatus::launch_error, "regs"));
  record(*log, test::candidate("128"), test::ok_evaluation(1.8, "confirm"));

  auto recording = load_run_recording(*store, log->id(), "screen");
  ASSERT_TRUE(recording) << recording.error().message;
  EXPECT_EQ(recording->target.device_name, "NVIDIA H200");
  EXPECT_EQ(recording->target.toolkit, "12.9");
  ASSERT_EQ(recording->by_knobs.size(), 2u);
  std::map<std::string, std::string, std::less<>> const block_128{{"BLOCK", "128"}};
  ASSERT_EQ(recording->by_knobs.count(block_128), 1u);
  EXPECT_EQ(recording->by_knobs.at(block_128).geomean_speedup, 2.0) << "the screen tier, not the confirm";

  CandidateReport const report =
      report_from_record(recording->by_knobs.at(block_128), "BLOCK=128", CandidateMode::kernel);
  EXPECT_EQ(report.name, "BLOCK=128");
  EXPECT_EQ(report.status, CandidateStatus::ok);
  ASSERT_EQ(report.sizes.size(), 1u);
  ASSERT_TRUE(report.sizes[0].candidate);
  EXPECT_DOUBLE_EQ(report.sizes[0].candidate->us.median, 50.0);
  EXPECT_DOUBLE_EQ(report.sizes[0].candidate->us.iqr(), 1.0);
  ASSERT_TRUE(report.sizes[0].reference);
  EXPECT_DOUBLE_EQ(report.sizes[0].reference->us.median, 100.0);
  EXPECT_EQ(report.sizes[0].speedup, 2.0);

  auto none = load_run_recording(*store, log->id(), "profile");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().code, ErrorCode::not_found);
  EXPECT_NE(none.error().message.find("no profile-tier evaluations to replay"), std::string::npos);
}

}  // namespace runs_test
}  // namespace kopt
