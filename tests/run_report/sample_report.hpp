// A hand-made RunReport whose texts contain markup (for the escaping tests of the renderers).
#pragma once

#include "kopt/run_report.hpp"

namespace kopt::test {

inline RunReport sample_report() {
  RunReport report;
  report.run = RunId(7);
  report.task_name = "soft<b>max</b>";
  report.task_dir = "tasks/a&b";
  report.status = "interrupted";
  report.strategy = "greedy";
  report.seed = 42;
  report.budget_evaluations = 10;
  report.device = "NVIDIA H200";
  report.driver = "580.1";
  report.toolkit = "13.0";
  report.started_at = "2026-01-01T00:00:00Z";
  std::string const root_source =
      "#define BLOCK 128\n// <b>bold</b> & </script><script>alert(1)</script>\nint x;\n";
  std::string const best_source =
      "#define BLOCK 256\n// <b>bold</b> & </script><script>alert(1)</script>\nint x;\n";
  RunReportSize timed{"large", false, "ok", "", 0.0, 1e-7, 50.0, 0.5, 100.0, 2.0, 44.0, 2100.0, std::nullopt};
  RunReportSize odd{"odd", true, "ok", "", 0.0, 0.0, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
  report.candidates.push_back(RunReportCandidate{CandidateId(1),
                                                 std::nullopt,
                                                 "",
                                                 "BLOCK=128",
                                                 {{"BLOCK", "128"}},
                                                 {},
                                                 root_source,
                                                 CandidateStatus::ok,
                                                 "",
                                                 1.25,
                                                 std::nullopt,
                                                 1});
  report.candidates.push_back(RunReportCandidate{CandidateId(2),
                                                 CandidateId(1),
                                                 "BLOCK:+1",
                                                 "BLOCK=256",
                                                 {{"BLOCK", "256"}},
                                                 {},
                                                 best_source,
                                                 CandidateStatus::ok,
                                                 "",
                                                 2.0,
                                                 2.0,
                                                 2});
  report.candidates.push_back(RunReportCandidate{CandidateId(3),
                                                 CandidateId(2),
                                                 "BLOCK:+1",
                                                 "BLOCK=<512>",
                                                 {{"BLOCK", "<512>"}},
                                                 {},
                                                 "int y;\n",
                                                 CandidateStatus::compile_error,
                                                 "error: expected '<' & '>'\nmore",
                                                 std::nullopt,
                                                 std::nullopt,
                                                 1});
  report.evaluations.push_back(RunReportEvaluation{
      1, EvaluationId(1), CandidateId(1), "screen", CandidateStatus::ok, "", 1.25, 1.25, {timed, odd}});
  report.evaluations.push_back(RunReportEvaluation{
      2, EvaluationId(2), CandidateId(2), "screen", CandidateStatus::ok, "", 2.0, 2.0, {timed, odd}});
  report.evaluations.push_back(RunReportEvaluation{3,
                                                   EvaluationId(3),
                                                   CandidateId(3),
                                                   "screen",
                                                   CandidateStatus::compile_error,
                                                   "error: expected '<' & '>'\nmore",
                                                   std::nullopt,
                                                   2.0,
                                                   {}});
  report.evaluations.push_back(RunReportEvaluation{
      4, EvaluationId(4), CandidateId(2), "confirm", CandidateStatus::ok, "", 2.0, 2.0, {timed, odd}});
  report.best = RunReportBest{CandidateId(2), "BLOCK=256", {{"BLOCK", "256"}}, "confirm", 2.0,
                              {timed, odd},   best_source};
  RunReportStep start;
  start.candidate = CandidateId(1);
  start.speedup_after = 1.25;
  start.status = CandidateStatus::ok;
  start.evidence = {timed, odd};
  RunReportStep step;
  step.candidate = CandidateId(2);
  step.from = CandidateId(1);
  step.action = "BLOCK:+1";
  step.changes = {KnobChange{"BLOCK", "128", "256"}};
  step.speedup_before = 1.25;
  step.speedup_after = 2.0;
  step.status = CandidateStatus::ok;
  step.evidence = {timed, odd};
  step.diff = diff_sources(root_source, best_source);
  report.steps = {start, step};
  report.failures = {
      RunReportFailureGroup{CandidateStatus::compile_error,
                            {RunReportFailure{CandidateId(3), "BLOCK=<512>", "error: expected '<' & '>'"}}}};
  report.knob_effects = compute_knob_effects(report.candidates, report.best);
  return report;
}

}  // namespace kopt::test
