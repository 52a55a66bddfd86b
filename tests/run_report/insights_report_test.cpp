// The run report shows each step's analysis (HTML, Markdown, JSON) and the best candidate's findings.
#include <gtest/gtest.h>

#include "run_report/run_report_fixtures.hpp"
#include "run_report/sample_report.hpp"
#include "support/fake_candidate_evaluator.hpp"

namespace kopt {
namespace insights_report_test {

using test::RunFixture;

// The landscape with spills at VEC=4 (the best's value): its findings show in the report.
FakeResult spilling_landscape(std::map<std::string, std::string, std::less<>> const& knobs) {
  FakeResult result = test::shifted_landscape(knobs);
  if (test::knob(knobs, "VEC") == 2) result.resources = ResourceUsage{255, 512, 512, 0, 1024};
  return result;
}

CandidateInsight hand_made_insight() {
  CandidateInsight insight;
  insight.size = "large";
  insight.source = "roofline";
  insight.classification.bottleneck = BottleneckClass::memory_bound;
  insight.classification.memory_level = MemoryLevel::dram;
  insight.classification.basis = ClassificationBasis::roofline;
  insight.classification.summary = "Memory-bound <b>at</b> 86%.";
  insight.pct_of_sol = 61.0;
  Finding spills;
  spills.tool = "register_spills";
  spills.severity = Severity::high;
  spills.evidence = {{"static.spill_store_bytes", 512.0}};
  spills.explanation = "1024 bytes <spilled>";
  spills.strategies = {"reduce_register_pressure"};
  insight.findings = {spills};
  return insight;
}

TEST(RunReportInsights, HandMadeReportShowsStepAnalysisEscaped) {
  RunReport report = test::sample_report();
  report.candidates[1].insights = {hand_made_insight()};  // candidate 2, the best and step 2
  std::string const html = render_run_html(report);
  EXPECT_NE(html.find("Analysis: <span class=\"class\">memory-bound (DRAM)</span> · 61% of speed of light"),
            std::string::npos);
  EXPECT_NE(html.find("<span class=\"badge bad\">high</span> <code>register_spills</code> 1024 bytes "
                      "&lt;spilled&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("try: reduce_register_pressure"), std::string::npos);
  EXPECT_NE(html.find("id=\"best-analysis\""), std::string::npos);
  EXPECT_NE(html.find("Memory-bound &lt;b&gt;at&lt;/b&gt; 86%."), std::string::npos);
  EXPECT_NE(html.find("static.spill_store_bytes = 512"), std::string::npos);  // full findings: numbers
  EXPECT_EQ(html.find("<spilled>"), std::string::npos);

  std::string const md = render_run_markdown(report);
  EXPECT_NE(md.find("2. `BLOCK:+1` BLOCK 128 → 256: 1.25x → 2.00x (+60.0%) · memory-bound (DRAM), 61 % SOL; "
                    "register_spills: high\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("1. start: candidate 1, 1.25x\n"), std::string::npos);  // no insight: unchanged

  nlohmann::json const json = to_json(report);
  EXPECT_EQ(json["candidates"][1]["insights"][0]["schema"], "kopt.insight/1");
  EXPECT_EQ(json["candidates"][1]["insights"][0]["findings"][0]["tool"], "register_spills");
  EXPECT_TRUE(json["candidates"][0]["insights"].empty());
  EXPECT_EQ(json["steps"][1]["analysis"], "memory-bound (DRAM), 61 % SOL; register_spills: high");
  EXPECT_TRUE(json["steps"][0]["analysis"].is_null());
}

TEST_F(RunFixture, RealRunCarriesInsightsIntoEveryRendering) {
  RunReport const report = report_of(make_run("greedy", 30, 11, spilling_landscape));
  ASSERT_TRUE(report.best);
  ASSERT_FALSE(report.steps.empty());
  for (RunReportCandidate const& candidate : report.candidates) {
    if (candidate.status == CandidateStatus::ok) {
      EXPECT_EQ(candidate.insights.size(), 2u) << candidate.config;  // medium, large
    } else {
      EXPECT_TRUE(candidate.insights.empty());
    }
  }
  std::string const html = render_run_html(report);
  EXPECT_EQ(test::count_of(html, "<div class=\"insight\">Analysis: "), report.steps.size());
  EXPECT_NE(html.find("% of speed of light"), std::string::npos);
  EXPECT_NE(html.find("<code>register_spills</code>"), std::string::npos);  // the best has VEC=2
  std::string const md = render_run_markdown(report);
  EXPECT_EQ(test::count_of(md, " % SOL"), report.steps.size() + 1) << md;  // + the table's header
  EXPECT_NE(md.find("register_spills: high"), std::string::npos);
  nlohmann::json const json = to_json(report);
  EXPECT_EQ(nlohmann::json::parse(json.dump()), json);
  for (auto const& step : json["steps"]) EXPECT_TRUE(step["analysis"].is_string()) << step.dump();
}

}  // namespace insights_report_test
}  // namespace kopt
