#include "cli/progress.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace kopt::cli {
namespace progress_test {

TEST(Progress, StyleFollowsJsonAndTerminal) {
  EXPECT_EQ(progress_style_for(true, true), ProgressStyle::none);
  EXPECT_EQ(progress_style_for(true, false), ProgressStyle::none);
  EXPECT_EQ(progress_style_for(false, true), ProgressStyle::bar);
  EXPECT_EQ(progress_style_for(false, false), ProgressStyle::lines);
}

TEST(Progress, BarFillsInProportion) {
  EXPECT_EQ(render_progress_bar({0, 10, "compile"}, 80), "[....................]  0/10  compile");
  EXPECT_EQ(render_progress_bar({5, 10, "fast.cu: verify 'odd'"}, 80),
            "[##########..........]  5/10  fast.cu: verify 'odd'");
  EXPECT_EQ(render_progress_bar({10, 10, ""}, 80), "[####################] 10/10");
  EXPECT_EQ(render_progress_bar({12, 10, ""}, 80), "[####################] 10/10");  // clamped
  EXPECT_EQ(render_progress_bar({0, 0, ""}, 80), "[....................] 0/0");
}

TEST(Progress, BarIsCutToTheTerminalWidthByCodePoints) {
  std::string bar = render_progress_bar({1, 2, "timing µ-kernel with a very long name"}, 40);
  EXPECT_EQ(bar, "[##########..........] 1/2  timing µ-ker");
  EXPECT_EQ(render_progress_bar({1, 2, "x"}, 5), "[####");
}

TEST(Progress, LinesModePrintsEachStepOnceWithTheSecondsSinceTheStart) {
  std::ostringstream out;
  double now = 0.0;
  {
    ProgressPrinter printer(out, ProgressStyle::lines, 80, [&now] { return now; });
    printer.update({0, 2, "a.cu: compile"});
    now = 2.5;
    printer.update({0, 2, "a.cu: compile"});
    now = 12.25;
    printer.update({1, 2, "a.cu: verify"});
    now = 1234.5;
    printer.update({2, 2, "done"});
  }
  EXPECT_EQ(out.str(),
            "    0.0 s  [0/2] a.cu: compile\n   12.2 s  [1/2] a.cu: verify\n 1234.5 s  [2/2] done\n");
}

TEST(Progress, BarModeRedrawsAndClearsAtTheEnd) {
  std::ostringstream out;
  ProgressPrinter printer(out, ProgressStyle::bar, 81);
  printer.update({1, 2, "a"});
  printer.finish();
  printer.finish();
  EXPECT_EQ(out.str(), "\r[##########..........] 1/2  a\x1b[K\r\x1b[K");
}

TEST(Progress, NoneModePrintsNothing) {
  std::ostringstream out;
  ProgressPrinter printer(out, ProgressStyle::none, 80);
  printer.update({1, 2, "a"});
  printer.finish();
  EXPECT_TRUE(out.str().empty());
}

}  // namespace progress_test
}  // namespace kopt::cli
