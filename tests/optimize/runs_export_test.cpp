// The runs optimize records, read back: `kopt runs` and `kopt export` of a run it made; and the arguments
// of `kopt optimize`, `kopt runs` and `kopt export`.
#include <gtest/gtest.h>

#include <sstream>

#include "cli/arguments.hpp"
#include "cli/command_registry.hpp"
#include "kopt/optimize.hpp"
#include "kopt/runs.hpp"
#include "kopt/store.hpp"
#include "optimize/optimize_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"
#include "support/temp_dir.hpp"

namespace kopt {
namespace runs_export_test {

struct RunsFixture : ::testing::Test {
  void SetUp() override {
    auto loaded = load_task(test::kTaskDir);
    ASSERT_TRUE(loaded) << loaded.error().message;
    auto opened = Store::open(dir.path() / "kopt.db");
    ASSERT_TRUE(opened) << opened.error().message;
    store.emplace(std::move(*opened));
    OptimizeOptions options;
    options.strategy = "random";
    options.max_evaluations = 10;
    options.seed = 3;
    FakeCandidateEvaluator fake(test::landscape);
    auto result = optimize(*loaded, test::read_text(test::kTunable), options, fake, *store);
    ASSERT_TRUE(result) << result.error().message;
    run = result->run;
    best_config = result->incumbent_config;
  }
  // Another short run of the same task in which every candidate gets `verdict`.
  OptimizeResult run_where_every_candidate_gets(FakeResult const& verdict) {
    auto loaded = load_task(test::kTaskDir);
    EXPECT_TRUE(loaded) << loaded.error().message;
    OptimizeOptions options;
    options.strategy = "random";
    options.max_evaluations = 3;
    FakeCandidateEvaluator fake([verdict](auto const&) { return verdict; });
    auto result = optimize(*loaded, test::read_text(test::kTunable), options, fake, *store);
    EXPECT_TRUE(result) << result.error().message;
    return result ? *result : OptimizeResult{};
  }
  test::TempDir dir;
  std::optional<Store> store;
  RunId run;
  std::string best_config;
};

TEST_F(RunsFixture, AnOptimizeRunIsListedWithItsStrategyAndCounts) {
  auto runs = summarise_runs(*store);
  ASSERT_TRUE(runs) << runs.error().message;
  ASSERT_EQ(runs->size(), 1u);
  EXPECT_EQ(runs->front().status, "finished");
  EXPECT_EQ(runs->front().strategy, "random");
  EXPECT_EQ(runs->front().candidates, 10u);
  EXPECT_EQ(runs->front().evaluations, 11u);
  ASSERT_TRUE(runs->front().best_confirmed_speedup);
  auto listing = list_runs_and_sessions(*store);
  ASSERT_TRUE(listing) << listing.error().message;
  EXPECT_EQ(listing->store, store->path().string());
  EXPECT_TRUE(listing->sessions.empty());
  ASSERT_EQ(listing->runs.size(), 1u);
}

TEST_F(RunsFixture, ExportWritesTheConfirmedBestSource) {
  auto const out = dir.path() / "best.cu";
  auto exported = export_best(*store, run, out);
  ASSERT_TRUE(exported) << exported.error().message;
  EXPECT_EQ(exported->tier, "confirm");
  EXPECT_EQ(test::read_text(out), exported->source);
  EXPECT_NE(exported->source.find("// kopt optimize: " + best_config), std::string::npos);
  auto missing = export_best(*store, RunId(42), out);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
}

TEST_F(RunsFixture, ExportOfARunWithoutOkCandidatesFails) {
  auto const result =
      run_where_every_candidate_gets(FakeResult{CandidateStatus::wrong_output, "bad", {}, {}});
  EXPECT_FALSE(result.incumbent);
  EXPECT_FALSE(result.confirmed);
  auto exported = export_best(*store, result.run, dir.path() / "none.cu");
  ASSERT_FALSE(exported);
  EXPECT_NE(exported.error().message.find("no candidate passed verification"), std::string::npos);
}

TEST_F(RunsFixture, ExportKeepsTheReferenceWhenTheBestIsSlowerThanIt) {
  auto loaded = load_task(test::kTaskDir);
  ASSERT_TRUE(loaded);
  auto const result = run_where_every_candidate_gets(FakeResult{CandidateStatus::ok, "", {200.0}, {100.0}});
  auto const out = dir.path() / "kept.cu";
  auto exported = export_best(*store, result.run, out);
  ASSERT_TRUE(exported) << exported.error().message;
  EXPECT_TRUE(exported->reference_kept);
  EXPECT_EQ(exported->reference, loaded->reference.path);
  EXPECT_DOUBLE_EQ(exported->geomean_speedup, 0.5);
  EXPECT_EQ(test::read_text(out), test::read_text(loaded->reference.path));

  auto candidate = export_best(*store, result.run, out, /*even_if_slower=*/true);
  ASSERT_TRUE(candidate) << candidate.error().message;
  EXPECT_FALSE(candidate->reference_kept);
  EXPECT_EQ(test::read_text(out), candidate->source);
  EXPECT_NE(candidate->source, test::read_text(loaded->reference.path));
}

// ---- argument handling -----------------------------------------------------------------------------

cli::ParsedCommandLine parse(std::vector<char const*> argv, std::string* err_text = nullptr) {
  argv.insert(argv.begin(), "kopt");
  std::ostringstream out, err;
  auto parsed =
      cli::parse_command_line(static_cast<int>(argv.size()), argv.data(), out, err, cli::cli_commands());
  if (err_text) *err_text = err.str();
  return parsed;
}

TEST(OptimizeArguments, NewRunTakesTaskSourceBudgetStrategyAndSeed) {
  auto parsed =
      parse({"optimize", "tasks/a", "--from", "k.cu", "--budget", "12", "--time", "30", "--strategy",
             "greedy", "--seed", "5", "--store", "x.db", "--json", "--flag=-lineinfo"});
  ASSERT_TRUE(parsed.arguments);
  EXPECT_EQ(parsed.arguments->command, "optimize");
  auto const& a = parsed.arguments->optimize;
  EXPECT_EQ(a.task_dir, "tasks/a");
  EXPECT_EQ(a.from, "k.cu");
  EXPECT_EQ(a.budget, 12u);
  EXPECT_EQ(a.time_s, 30.0);
  EXPECT_EQ(a.strategy, "greedy");
  EXPECT_EQ(a.seed, 5u);
  EXPECT_EQ(a.store, "x.db");
  EXPECT_TRUE(a.json);
  EXPECT_EQ(a.flags, (std::vector<std::string>{"-lineinfo"}));
  EXPECT_TRUE(cli::check_optimize_args(a));
}

TEST(OptimizeArguments, DefaultsAndBadValues) {
  auto parsed = parse({"optimize", "t", "--from", "k.cu"});
  ASSERT_TRUE(parsed.arguments);
  EXPECT_EQ(parsed.arguments->optimize.budget, 100u);
  EXPECT_EQ(parsed.arguments->optimize.strategy, "mcts");
  EXPECT_EQ(parsed.arguments->optimize.seed, 1u);
  std::string err;
  EXPECT_EQ(parse({"optimize", "t", "--from", "k.cu", "--strategy", "annealing"}, &err).exit_code, 2);
  EXPECT_NE(err.find("annealing"), std::string::npos);
  EXPECT_EQ(parse({"optimize", "t", "--from", "k.cu", "--budget", "0"}).exit_code, 2);
  EXPECT_EQ(parse({"optimize", "t", "--from", "k.cu", "--time", "-1"}).exit_code, 2);
  EXPECT_EQ(parse({"optimize", "t", "--from", "k.cu", "--budget", "many"}).exit_code, 2);
}

TEST(OptimizeArguments, ObjectiveIsRuntimeEnergyOrCompositeAndNotWithResume) {
  auto plain = parse({"optimize", "t", "--from", "k.cu"});
  ASSERT_TRUE(plain.arguments);
  EXPECT_EQ(plain.arguments->optimize.objective, "runtime");
  auto energy = parse({"optimize", "t", "--from", "k.cu", "--objective", "energy"});
  ASSERT_TRUE(energy.arguments);
  EXPECT_EQ(energy.arguments->optimize.objective, "energy");
  EXPECT_TRUE(cli::check_optimize_args(energy.arguments->optimize));
  std::string err;
  EXPECT_EQ(parse({"optimize", "t", "--from", "k.cu", "--objective", "watts"}, &err).exit_code, 2);
  EXPECT_NE(err.find("watts"), std::string::npos) << err;
  auto resumed = parse({"optimize", "--resume", "3", "--objective", "composite"});
  ASSERT_TRUE(resumed.arguments);
  auto status = cli::check_optimize_args(resumed.arguments->optimize);
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("--objective"), std::string::npos) << status.error().message;
}

TEST(OptimizeArguments, ResumeExcludesTaskAndSource) {
  auto resume = parse({"optimize", "--resume", "3"});
  ASSERT_TRUE(resume.arguments);
  EXPECT_EQ(resume.arguments->optimize.resume, 3);
  EXPECT_TRUE(cli::check_optimize_args(resume.arguments->optimize));
  auto both = parse({"optimize", "t", "--from", "k.cu", "--resume", "3"});
  ASSERT_TRUE(both.arguments);
  EXPECT_FALSE(cli::check_optimize_args(both.arguments->optimize));
  auto neither = parse({"optimize"});
  ASSERT_TRUE(neither.arguments);
  auto status = cli::check_optimize_args(neither.arguments->optimize);
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("<task-dir>"), std::string::npos);
  // Without --from the built-in proposer tunes the strategy library's kernels (docs/strategies.md).
  auto builtin = parse({"optimize", "t", "--use", "vectorized_map1", "--strategies", "lib"});
  ASSERT_TRUE(builtin.arguments);
  EXPECT_TRUE(cli::check_optimize_args(builtin.arguments->optimize));
  EXPECT_EQ(builtin.arguments->optimize.use, std::vector<std::string>{"vectorized_map1"});
  auto mixed = parse({"optimize", "t", "--from", "k.cu", "--use", "vectorized_map1"});
  ASSERT_TRUE(mixed.arguments);
  status = cli::check_optimize_args(mixed.arguments->optimize);
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("expected no --from"), std::string::npos);
}

TEST(OptimizeArguments, RunsAndExport) {
  auto runs = parse({"runs", "--store", "s.db", "--json"});
  ASSERT_TRUE(runs.arguments);
  EXPECT_EQ(runs.arguments->command, "runs");
  EXPECT_EQ(runs.arguments->runs.store, "s.db");
  EXPECT_TRUE(runs.arguments->runs.json);
  auto exp = parse({"export", "4", "-o", "best.cu"});
  ASSERT_TRUE(exp.arguments);
  EXPECT_EQ(exp.arguments->command, "export");
  EXPECT_EQ(exp.arguments->export_run.run, 4);
  EXPECT_EQ(exp.arguments->export_run.out, "best.cu");
  EXPECT_EQ(parse({"export", "4"}).exit_code, 2);  // -o is required
  EXPECT_EQ(parse({"export", "0", "-o", "b.cu"}).exit_code, 2);
}

}  // namespace runs_export_test
}  // namespace kopt
