#include <gtest/gtest.h>

#include <set>

#include "run_report/run_report_fixtures.hpp"
#include "support/fake_candidate_evaluator.hpp"

namespace kopt {
namespace build_run_report_test {

using test::RunFixture;

TEST_F(RunFixture, HeaderComesFromTheRunAndItsEvaluations) {
  RunId const run = make_run("greedy", 12, 5);
  RunReport const report = report_of(run);
  EXPECT_EQ(report.run, run);
  EXPECT_EQ(report.task_name, "vector_add");
  EXPECT_EQ(report.status, "finished");
  EXPECT_EQ(report.strategy, "greedy");
  EXPECT_EQ(report.seed, 5u);
  ASSERT_TRUE(report.budget_evaluations);
  EXPECT_EQ(*report.budget_evaluations, 12u);
  EXPECT_FALSE(report.budget_seconds);
  EXPECT_EQ(report.device, "fake device");
  EXPECT_EQ(report.toolkit, "fake toolkit");
  EXPECT_FALSE(report.started_at.empty());
  EXPECT_TRUE(report.finished_at);
  auto history = store->load_run(run);
  ASSERT_TRUE(history);
  EXPECT_EQ(report.candidates.size(), history->candidates.size());
  ASSERT_EQ(report.evaluations.size(), history->evaluations.size());
  for (std::size_t i = 0; i < report.evaluations.size(); ++i) {
    EXPECT_EQ(report.evaluations[i].index, i + 1);
    EXPECT_EQ(report.evaluations[i].id, history->evaluations[i].id);
  }
}

TEST_F(RunFixture, EnergyRunNamesItsObjectiveAndTheBestsScore) {
  make_run("exhaustive", 3);  // opens the store; a runtime run says so too
  EXPECT_EQ(report_of(RunId(1)).objective, "runtime");
  EXPECT_FALSE(report_of(RunId(1)).best->objective_score);
  auto task = load_task(test::kTaskDir);
  ASSERT_TRUE(task);
  OptimizeOptions options;
  options.strategy = "exhaustive";
  options.max_evaluations = 6;
  options.source_path = test::kTunable;
  options.objective = OptimizeObjective::energy;
  FakeCandidateEvaluator fake([](auto const& knobs) {
    FakeResult result = test::landscape(knobs);
    result.energy_j = 1.0;
    result.reference_energy_j = 1.8;
    return result;
  });
  auto result = optimize(*task, test::read_text(test::kTunable), options, fake, *store);
  ASSERT_TRUE(result) << result.error().message;
  RunReport const report = report_of(result->run);
  EXPECT_EQ(report.objective, "energy");
  ASSERT_TRUE(report.best);
  ASSERT_TRUE(report.best->objective_score);
  EXPECT_NEAR(*report.best->objective_score, 1.8, 1e-12);
  std::string const md = render_run_markdown(report);
  EXPECT_NE(md.find("Objective energy: **energy gain 1.80x**"), std::string::npos) << md;
  EXPECT_NE(render_run_html(report).find("energy gain 1.80x"), std::string::npos);
  nlohmann::json const json = to_json(report);
  EXPECT_EQ(json["objective"], "energy");
  EXPECT_NEAR(json["best"]["objective_score"].get<double>(), 1.8, 1e-12);
}

TEST_F(RunFixture, BestIsChosenAsExportDoes) {
  RunId const run = make_run("random", 15, 3);
  RunReport const report = report_of(run);
  auto exported = export_best(*store, run, dir.path() / "best.cu");
  ASSERT_TRUE(exported) << exported.error().message;
  ASSERT_TRUE(report.best);
  EXPECT_EQ(report.best->candidate, exported->candidate);
  EXPECT_EQ(report.best->tier, exported->tier);
  EXPECT_EQ(report.best->tier, "confirm");
  EXPECT_DOUBLE_EQ(report.best->geomean_speedup, exported->geomean_speedup);
  EXPECT_EQ(report.best->source, exported->source);
  ASSERT_EQ(report.best->sizes.size(), 3u);  // vector_add: two timed sizes and a verify-only one
  std::size_t timed = 0;
  for (RunReportSize const& size : report.best->sizes) {
    if (size.verify_only) continue;
    ++timed;
    ASSERT_TRUE(size.speedup && size.median_us && size.reference_us && size.iqr_us) << size.size;
    EXPECT_NEAR(*size.speedup, *size.reference_us / *size.median_us, 1e-9);
  }
  EXPECT_EQ(timed, 2u);
}

TEST_F(RunFixture, ChainFollowsParentLinksFromTheStartToTheBest) {
  RunId const run = make_run("greedy", 30, 11, test::shifted_landscape);
  RunReport const report = report_of(run);
  ASSERT_TRUE(report.best);
  ASSERT_GE(report.steps.size(), 2u) << "greedy climbs at least one step from its start";
  EXPECT_EQ(report.steps.back().candidate, report.best->candidate);
  RunReportCandidate const* root = nullptr;
  for (auto const& c : report.candidates)
    if (!c.parent) {
      root = &c;
      break;
    }
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(report.steps.front().candidate, root->id);
  EXPECT_FALSE(report.steps.front().from);
  std::map<std::int64_t, RunReportCandidate const*> by_id;
  for (auto const& c : report.candidates) by_id[c.id.value()] = &c;
  for (std::size_t i = 1; i < report.steps.size(); ++i) {
    RunReportStep const& step = report.steps[i];
    ASSERT_TRUE(step.from);
    EXPECT_EQ(*step.from, report.steps[i - 1].candidate);
    RunReportCandidate const& candidate = *by_id.at(step.candidate.value());
    RunReportCandidate const& parent = *by_id.at(step.from->value());
    if (step.linked) {
      EXPECT_EQ(candidate.parent, step.from);
      EXPECT_EQ(step.action, candidate.action);
      EXPECT_FALSE(step.action.empty());
    }
    EXPECT_EQ(step.speedup_before, parent.screen_speedup);
    EXPECT_EQ(step.speedup_after, candidate.screen_speedup);
    ASSERT_FALSE(step.changes.empty());
    for (KnobChange const& change : step.changes) {
      EXPECT_EQ(change.before, parent.knobs.at(change.name));
      EXPECT_EQ(change.after, candidate.knobs.at(change.name));
    }
    EXPECT_FALSE(step.diff.hunks.empty());
    EXPECT_FALSE(step.evidence.empty());
  }
}

TEST_F(RunFixture, ChainWithoutParentLinksStartsAtTheFirstCandidate) {
  RunId const run = make_run("random", 10, 4);  // random proposals have no parents
  RunReport const report = report_of(run);
  ASSERT_TRUE(report.best);
  ASSERT_FALSE(report.candidates.empty());
  EXPECT_EQ(report.steps.front().candidate, report.candidates.front().id);
  EXPECT_EQ(report.steps.back().candidate, report.best->candidate);
  if (report.best->candidate != report.candidates.front().id) {
    ASSERT_EQ(report.steps.size(), 2u);
    EXPECT_FALSE(report.steps.back().linked);
  }
}

TEST_F(RunFixture, FailuresAreGroupedByStatusLargestFirst) {
  RunId const run = make_run("exhaustive", 100);
  RunReport const report = report_of(run);
  // compile_error: BLOCK=1024 with VEC=1 and ITEMS 1..8 (4); wrong_output: BLOCK=64, ITEMS=8, VEC 1 or 2 (2)
  // minus the one both rules hit (BLOCK=64 is not 1024, so none).
  ASSERT_EQ(report.failures.size(), 2u);
  EXPECT_EQ(report.failures[0].status, CandidateStatus::compile_error);
  EXPECT_EQ(report.failures[0].candidates.size(), 4u);
  EXPECT_EQ(report.failures[1].status, CandidateStatus::wrong_output);
  EXPECT_EQ(report.failures[1].candidates.size(), 2u);
  for (auto const& failure : report.failures[0].candidates) {
    EXPECT_EQ(failure.message, "error: too many resources <for> BLOCK");  // the first line only
    EXPECT_NE(failure.config.find("BLOCK=1024"), std::string::npos);
    EXPECT_NE(failure.config.find("VEC=1"), std::string::npos);
  }
  std::size_t failed = 0;
  for (auto const& c : report.candidates) failed += c.status && *c.status != CandidateStatus::ok;
  EXPECT_EQ(failed, 6u);
}

TEST_F(RunFixture, BestSoFarNeverDecreasesAndFollowsScreenEvaluations) {
  RunReport const report = report_of(make_run("mcts", 25, 2));
  std::optional<double> best;
  for (RunReportEvaluation const& e : report.evaluations) {
    if (e.tier == "screen" && e.status == CandidateStatus::ok && e.geomean_speedup &&
        (!best || *e.geomean_speedup > *best))
      best = e.geomean_speedup;
    EXPECT_EQ(e.best_so_far, best) << "evaluation " << e.index;
  }
  EXPECT_TRUE(best);
}

TEST_F(RunFixture, RunWithoutOkCandidatesHasNoBestAndNoSteps) {
  RunId const run = make_run("random", 4, 1, [](auto const&) {
    return FakeResult{CandidateStatus::wrong_output, "bad", {}, {}};
  });
  RunReport const report = report_of(run);
  EXPECT_FALSE(report.best);
  EXPECT_TRUE(report.steps.empty());
  ASSERT_EQ(report.failures.size(), 1u);
  EXPECT_EQ(report.failures[0].candidates.size(), 4u);
}

TEST_F(RunFixture, UnknownRunIsNotFound) {
  make_run("random", 2);
  auto report = build_run_report(*store, RunId(99));
  ASSERT_FALSE(report);
  EXPECT_EQ(report.error().code, ErrorCode::not_found);
  EXPECT_NE(report.error().message.find("99"), std::string::npos);
}

}  // namespace build_run_report_test
}  // namespace kopt
