#include <gtest/gtest.h>

#include "run_report/run_report_fixtures.hpp"
#include "run_report/sample_report.hpp"

namespace kopt {
namespace render_markdown_test {

using test::RunFixture;

TEST(RenderMarkdown, HeadlineTableStepsAndFailures) {
  std::string const md = render_run_markdown(test::sample_report());
  EXPECT_TRUE(md.starts_with("### kopt run 7 · soft<b>max</b>: **2.00x** geomean speedup (confirm tier)\n"));
  EXPECT_NE(md.find("Best: `BLOCK=256` (candidate 2). greedy search, seed 42"), std::string::npos);
  EXPECT_NE(md.find("| large | 100 µs | 50.0 µs ± 500 ns | 2.00x | 44% · 2100 GB/s | 0 |\n"),
            std::string::npos);
  EXPECT_NE(md.find("| odd | verify only | - | - | - | 0 |\n"), std::string::npos);
  EXPECT_NE(md.find("1. start: candidate 1, 1.25x\n"), std::string::npos);
  EXPECT_NE(md.find("2. `BLOCK:+1` BLOCK 128 → 256: 1.25x → 2.00x (+60.0%)\n"), std::string::npos);
  EXPECT_TRUE(md.ends_with("\nFailures: compile_error 1\n"));
  EXPECT_LE(test::count_of(md, "\n"), 20u);
}

TEST_F(RunFixture, MarkdownOfARealRunIsShort) {
  RunReport const report = report_of(make_run("greedy", 30, 11, test::shifted_landscape));
  std::string const md = render_run_markdown(report);
  EXPECT_NE(md.find("**2.50x**"), std::string::npos);
  EXPECT_NE(md.find("`BLOCK=512 ITEMS=1 VEC=2`"), std::string::npos);
  EXPECT_NE(md.find("Failures: none"), std::string::npos);
  ASSERT_EQ(report.knob_effects.size(), 3u);
  // About 15 lines, and the knob effects: a blank line, a title and one line per knob (at most six).
  EXPECT_LE(test::count_of(md, "\n"), 20u + 2u + report.knob_effects.size()) << md;
}

TEST(RenderMarkdown, RunWithoutBest) {
  RunReport report = test::sample_report();
  report.best.reset();
  report.steps.clear();
  std::string const md = render_run_markdown(report);
  EXPECT_NE(md.find("no candidate passed verification"), std::string::npos);
  EXPECT_EQ(md.find("| size |"), std::string::npos);
}

}  // namespace render_markdown_test
}  // namespace kopt
