// The store as a user meets it, end to end through the built kopt executable (docs/store.md, "Opening a
// store" and "Sessions"): read-only commands create nothing, a mistyped --store is an error naming it,
// a run that fails for lack of a GPU leaves no store, and a library session is listed, reported and
// exported as one thing. The session's store is filled through the store API and the fake evaluator.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>

#include "run_report/run_report_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"

namespace kopt {
namespace store_commands_test {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

fs::path kopt_binary() {
  return fs::path(KOPT_BINARY_DIR) / "bin" / "kopt";
}

// Runs `kopt ARGUMENTS` with `cwd` as the current folder; stdout and stderr go to files outside it.
Outcome run_kopt(fs::path const& cwd, fs::path const& scratch, std::string const& arguments) {
  auto const out = scratch / "stdout";
  auto const err = scratch / "stderr";
  std::string const command = "cd '" + cwd.string() + "' && '" + kopt_binary().string() + "' " + arguments +
                              " >'" + out.string() + "' 2>'" + err.string() + "'";
  int const status = std::system(command.c_str());
  return Outcome{WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::read_text(out), test::read_text(err)};
}

// The start of `kopt runs`'s line of a run: the id right-aligned in 6 columns, after `indent`.
std::string run_row(std::string const& indent, RunId run) {
  std::string const id = std::to_string(run.value());
  return "\n" + indent + std::string(6 - id.size(), ' ') + id + "  vector_add";
}

std::vector<std::string> names_in(fs::path const& folder) {
  std::vector<std::string> names;
  for (auto const& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  return names;
}

// ---- an empty folder: readers create nothing, writers stop before they create a store ----------------

struct EmptyFolder : ::testing::Test {
  void SetUp() override {
    if (!fs::exists(kopt_binary()))
      GTEST_SKIP() << "build the kopt executable first (" << kopt_binary() << ")";
    fs::create_directories(cwd);
    fs::create_directories(scratch);
  }
  Outcome kopt(std::string const& arguments) { return run_kopt(cwd, scratch, arguments); }
  test::TempDir dir;
  fs::path cwd = dir.path() / "project";
  fs::path scratch = dir.path() / "scratch";
};

TEST_F(EmptyFolder, ReadersExitWithTwoNameTheStoreAndCreateNothing) {
  std::string const expected = "no store at " + (fs::canonical(cwd) / ".kopt" / "kopt.db").string() +
                               ": nothing has been recorded here yet";
  for (std::string const arguments : {"runs", "runs --json", "report 1", "report --session 1",
                                      "export 1 -o best.cu", "export --session 1 -o best.cu"}) {
    Outcome const result = kopt(arguments);
    EXPECT_EQ(result.exit_code, 2) << arguments << ": " << result.err;
    EXPECT_NE((result.err + result.out).find(expected), std::string::npos)
        << arguments << ": " << result.err << result.out;
    EXPECT_TRUE(names_in(cwd).empty()) << arguments << " created " << names_in(cwd).front();
  }
}

TEST_F(EmptyFolder, AMistypedStoreIsAnErrorNamingThePathAndNothingIsCreated) {
  std::string const typo = (fs::canonical(cwd) / "typo" / "x.db").string();
  Outcome result = kopt("runs --store typo/x.db");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("no store at " + typo), std::string::npos) << result.err;
  // A writer checks the folder before it starts anything.
  std::string const task = (fs::path(KOPT_SOURCE_DIR) / "examples" / "vector_add").string();
  std::string const kernel = test::kTunable.string();
  result = kopt("optimize " + task + " --from " + kernel + " --store typo/x.db");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("--store " + typo), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("the folder " + (fs::canonical(cwd) / "typo").string() + " does not exist"),
            std::string::npos)
      << result.err;
  result = kopt("optimize " + task + " --store typo/x.db");  // the library proposer
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(names_in(cwd).empty()) << "created " << names_in(cwd).front();
}

TEST_F(EmptyFolder, OptimizeWithoutAGpuExitsWithThreeAndLeavesNoStore) {
  if (fs::exists("/dev/nvidia0")) GTEST_SKIP() << "a GPU is present: this checks a machine without one";
  std::string const task = (fs::path(KOPT_SOURCE_DIR) / "examples" / "vector_add").string();
  for (std::string const& arguments :
       {"optimize " + task + " --from " + test::kTunable.string() + " --budget 2",
        "optimize " + task + " --budget 2"}) {
    Outcome const result = kopt(arguments);
    EXPECT_EQ(result.exit_code, 3) << arguments << ": " << result.err;
    EXPECT_TRUE(names_in(cwd).empty()) << arguments << " created " << names_in(cwd).front();
  }
}

TEST_F(EmptyFolder, OptimizeWithBadInputExitsWithTwoAndLeavesNoStore) {
  Outcome const result = kopt("optimize no/such/task --budget 2");
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(names_in(cwd).empty()) << "created " << names_in(cwd).front();
}

// ---- a library session, recorded through the store API ------------------------------------------------

struct SessionCommands : test::RunFixture {
  void SetUp() override {
    if (!fs::exists(kopt_binary()))
      GTEST_SKIP() << "build the kopt executable first (" << kopt_binary() << ")";
    loose = make_run("random", 5, 3, test::shifted_landscape);  // a run of no session, before the session
    auto created = store->create_session(
        SessionRecord{"library", "vector_add", test::kTaskDir.string(), {{"budget", 30}}});
    ASSERT_TRUE(created) << created.error().message;
    session = *created;
    screen_a = session_run("tiled", "screen", "random", 6, false);
    screen_b = session_run("vectorized", "screen", "greedy", 8, false);
    deepen = session_run("vectorized", "deepen", "greedy", 16, true);
    ASSERT_TRUE(store->finish_session(session, RunStatus::finished));
    fs::create_directories(scratch);
  }
  RunId session_run(std::string const& strategy, std::string const& phase, std::string const& search,
                    std::size_t budget, bool confirm) {
    auto loaded = load_task(test::kTaskDir);
    EXPECT_TRUE(loaded);
    OptimizeOptions options;
    options.strategy = search;
    options.max_evaluations = budget;
    options.seed = 5;
    options.source_path = test::kTunable;
    options.confirm = confirm;
    options.session = session;
    options.session_strategy = strategy;
    options.session_phase = phase;
    FakeCandidateEvaluator fake(test::shifted_landscape);
    auto result = optimize(*loaded, test::read_text(test::kTunable), options, fake, *store);
    EXPECT_TRUE(result) << result.error().message;
    return result ? result->run : RunId(0);
  }
  Outcome kopt(std::string const& arguments) {
    return run_kopt(dir.path(), scratch, arguments + " --store '" + (dir.path() / "kopt.db").string() + "'");
  }
  SessionReport session_report() {
    auto report = build_session_report(*store, session);
    EXPECT_TRUE(report) << report.error().message;
    return report ? std::move(*report) : SessionReport{};
  }
  fs::path scratch = dir.path() / "scratch";
  RunId loose;
  SessionId session;
  RunId screen_a;
  RunId screen_b;
  RunId deepen;
};

TEST_F(SessionCommands, TheSessionReportHoldsEveryRunAndTheConfirmedBest) {
  SessionReport const report = session_report();
  ASSERT_EQ(report.runs.size(), 3u);
  EXPECT_EQ(report.runs[0].report.run, screen_a);
  EXPECT_EQ(report.runs[0].strategy, "tiled");
  EXPECT_EQ(report.runs[2].phase, "deepen");
  EXPECT_EQ(report.status, "finished");
  ASSERT_TRUE(report.best_run);
  EXPECT_EQ(*report.best_run, 2u) << "the deepening run holds the only confirmed candidate";
  ASSERT_TRUE(report.runs[2].report.best);
  EXPECT_EQ(report.runs[2].report.best->tier, "confirm");

  std::string const md = render_session_markdown(report);
  EXPECT_NE(md.find("kopt session " + std::to_string(session.value()) + " · vector_add"), std::string::npos)
      << md;
  EXPECT_NE(md.find("(confirm tier)"), std::string::npos) << md;
  EXPECT_NE(md.find("| " + std::to_string(deepen.value()) + " ★ | deepen | vectorized |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("| " + std::to_string(screen_a.value()) + " | screen | tiled |"), std::string::npos)
      << md;
  std::string const html = render_session_html(report);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(test::count_of(html, "<svg"), 3u) << "one progress plot per run";
  EXPECT_NE(html.find("id=\"best\""), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  nlohmann::json const json = to_json(report);
  EXPECT_EQ(json["schema"], "kopt.session_report/1");
  EXPECT_EQ(json["best"]["run"], deepen.value());
  EXPECT_EQ(json["best"]["tier"], "confirm");
  EXPECT_EQ(json["runs"].size(), 3u);
}

TEST_F(SessionCommands, RunsListsTheSessionAsOneEntryWithItsRunsUnderIt) {
  Outcome const text = kopt("runs");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  std::string const header =
      "session " + std::to_string(session.value()) + ": vector_add, finished, 3 runs, best ";
  auto const at = text.out.find(header);
  ASSERT_NE(at, std::string::npos) << text.out;
  EXPECT_NE(text.out.find("confirm tier (run " + std::to_string(deepen.value()) + ", vectorized)"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find(run_row("  ", deepen)), std::string::npos)
      << "the session's runs are indented under it:\n"
      << text.out;
  EXPECT_NE(text.out.find("deepen vectorized"), std::string::npos) << text.out;
  EXPECT_LT(text.out.find(run_row("", loose)), at)
      << "the earlier run of no session comes first, unindented:\n"
      << text.out;

  Outcome const json_text = kopt("runs --json");
  ASSERT_EQ(json_text.exit_code, 0) << json_text.err;
  auto const json = nlohmann::json::parse(json_text.out);
  EXPECT_EQ(json["schema"], "kopt.runs/2");
  EXPECT_EQ(json["store"], (dir.path() / "kopt.db").string());
  ASSERT_EQ(json["sessions"].size(), 1u);
  EXPECT_EQ(json["sessions"][0]["id"], session.value());
  ASSERT_EQ(json["sessions"][0]["runs"].size(), 3u);
  EXPECT_EQ(json["sessions"][0]["runs"][1]["library_strategy"], "vectorized");
  EXPECT_EQ(json["sessions"][0]["best"]["run"], deepen.value());
  ASSERT_EQ(json["runs"].size(), 1u);
  EXPECT_EQ(json["runs"][0]["id"], loose.value());
  EXPECT_TRUE(json["runs"][0]["session"].is_null());
}

TEST_F(SessionCommands, ReportTakesASession) {
  Outcome result = kopt("report --session " + std::to_string(session.value()));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, render_session_markdown(session_report()));
  auto const html = dir.path() / "session.html";
  result = kopt("report --session " + std::to_string(session.value()) + " -o '" + html.string() + "'");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(test::read_text(html), render_session_html(session_report()));
  EXPECT_NE(result.out.find("session " + std::to_string(session.value()) + ", 3 runs"), std::string::npos)
      << result.out;
  result = kopt("report --session " + std::to_string(session.value()) + " --json");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out), to_json(session_report()));
}

// A session whose last run is a dispatch by size (docs/strategies.md): one fixed candidate without knobs,
// recorded by evaluate_as_run. The report shows it as a run of its own, and export writes it when its
// confirmed speedup is the session's best.
TEST_F(SessionCommands, ADispatchRunIsOneMoreRunOfTheSessionAndExportWritesIt) {
  auto created = store->create_session(
      SessionRecord{"library", "vector_add", test::kTaskDir.string(), {{"budget", 12}}});
  ASSERT_TRUE(created) << created.error().message;
  session = *created;
  RunId const tuned = session_run("vectorized", "screen", "random", 6, true);
  auto loaded = load_task(test::kTaskDir);
  ASSERT_TRUE(loaded);
  CandidateInput dispatch;
  dispatch.name = "dispatch(vectorized:BLOCK=512 | vectorized:BLOCK=128)";
  dispatch.source = "// kopt size dispatch for task vector_add: vectorized | vectorized\n" +
                    test::read_text(test::kTunable);
  dispatch.mode = CandidateMode::launcher;
  OptimizeOptions options;
  options.session = session;
  options.session_strategy = "size dispatch (vectorized | vectorized)";
  options.session_phase = "dispatch";
  // The dispatch (no knobs) at 3x, above anything the landscape gives.
  FakeCandidateEvaluator fake([](std::map<std::string, std::string, std::less<>> const& knobs) {
    return knobs.empty() ? FakeResult{CandidateStatus::ok, "", {100.0 / 3.0, 1000.0 / 3.0}, {100.0, 1000.0}}
                         : test::shifted_landscape(knobs);
  });
  auto run = evaluate_as_run(*loaded, dispatch, options, fake, *store);
  ASSERT_TRUE(run) << run.error().message;
  EXPECT_EQ(run->points, 1u);
  EXPECT_EQ(fake.confirm_calls(), 1u);
  ASSERT_TRUE(store->finish_session(session, RunStatus::finished));

  SessionReport const report = session_report();
  ASSERT_EQ(report.runs.size(), 2u);
  EXPECT_EQ(report.runs[1].phase, "dispatch");
  EXPECT_EQ(report.runs[1].strategy, "size dispatch (vectorized | vectorized)");
  ASSERT_TRUE(report.best_run);
  EXPECT_EQ(*report.best_run, 1u) << "the dispatch's confirmed 3x beats the screen run's confirmed best";
  std::string const md = render_session_markdown(report);
  EXPECT_NE(md.find("| dispatch | size dispatch (vectorized \\| vectorized) | finished | 1 / 2 | 3.00x "
                    "(confirm) | one per "
                    "size case: kopt report " +
                    std::to_string(run->run.value()) + " |"),
            std::string::npos)
      << md;
  EXPECT_EQ(render_session_html(report).rfind("<!DOCTYPE html>", 0), 0u);

  auto const out = dir.path() / "dispatch.cu";
  Outcome const exported =
      kopt("export --session " + std::to_string(session.value()) + " -o '" + out.string() + "'");
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  EXPECT_EQ(test::read_text(out), dispatch.source);
  EXPECT_NE(exported.out.find("run " + std::to_string(run->run.value())), std::string::npos) << exported.out;
  EXPECT_NE(tuned, run->run);
}

TEST_F(SessionCommands, ExportWritesTheSessionsBestVerifiedKernel) {
  auto const out = dir.path() / "best.cu";
  Outcome const result =
      kopt("export --session " + std::to_string(session.value()) + " -o '" + out.string() + "'");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto best = store->best_verified_candidate(session);
  ASSERT_TRUE(best && *best);
  EXPECT_EQ((*best)->candidate.run, deepen);
  EXPECT_EQ(test::read_text(out), (*best)->candidate.candidate.source);
  EXPECT_NE(result.out.find("session " + std::to_string(session.value()) + ", run " +
                            std::to_string(deepen.value())),
            std::string::npos)
      << result.out;
}

TEST_F(SessionCommands, UnknownIdsAndBadNotationsAreErrorsNamingTheStore) {
  std::string const path = (dir.path() / "kopt.db").string();
  Outcome result = kopt("report --session 99");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("session 99 is not in " + path), std::string::npos) << result.err;
  result = kopt("export --session 99 -o '" + (dir.path() / "x.cu").string() + "'");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("session 99 is not in " + path), std::string::npos) << result.err;
  result = kopt("export 99 -o '" + (dir.path() / "x.cu").string() + "'");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("run 99 is not in " + path), std::string::npos) << result.err;
  result = kopt("report 1 --session 1");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("run excludes --session"), std::string::npos) << result.err;
  result = kopt("report");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("expected a run id or --session ID"), std::string::npos) << result.err;
}

}  // namespace store_commands_test
}  // namespace kopt
