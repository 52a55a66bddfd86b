#include <gtest/gtest.h>

#include <algorithm>

#include "kopt/optimize.hpp"
#include "kopt/run_report.hpp"
#include "kopt/tuning.hpp"
#include "optimize/optimize_fixtures.hpp"

namespace kopt {
namespace source_diff_test {

std::vector<std::string> changed_lines(SourceDiff const& diff, char kind) {
  std::vector<std::string> lines;
  for (DiffHunk const& hunk : diff.hunks)
    for (DiffLine const& line : hunk.lines)
      if (line.kind == kind) lines.push_back(line.text);
  return lines;
}

TEST(SourceDiff, EqualTextsHaveNoHunks) {
  EXPECT_TRUE(diff_sources("a\nb\n", "a\nb\n").hunks.empty());
  EXPECT_EQ(to_unified_text(diff_sources("", "")), "");
}

TEST(SourceDiff, OneChangedLineHasThreeLinesOfContext) {
  std::string before;
  std::string after;
  for (int i = 1; i <= 20; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after += (i == 10 ? std::string("LINE 10") : "line " + std::to_string(i)) + "\n";
  }
  SourceDiff const diff = diff_sources(before, after);
  ASSERT_EQ(diff.hunks.size(), 1u);
  EXPECT_EQ(to_unified_text(diff),
            "@@ -7,7 +7,7 @@\n line 7\n line 8\n line 9\n-line 10\n+LINE 10\n line 11\n line 12\n line 13\n");
}

TEST(SourceDiff, DistantChangesMakeSeparateHunks) {
  std::string before;
  std::string after;
  for (int i = 1; i <= 30; ++i) {
    before += "x" + std::to_string(i) + "\n";
    after += (i == 2 || i == 28 ? "y" : "x") + std::to_string(i) + "\n";
  }
  SourceDiff const diff = diff_sources(before, after);
  ASSERT_EQ(diff.hunks.size(), 2u);
  EXPECT_EQ(changed_lines(diff, '-'), (std::vector<std::string>{"x2", "x28"}));
  EXPECT_EQ(changed_lines(diff, '+'), (std::vector<std::string>{"y2", "y28"}));
}

TEST(SourceDiff, MaterialisedSourcesDifferInExactlyTheChangedDefines) {
  std::string const source = test::read_text(test::kTunable);
  auto task = load_task(test::kTaskDir);
  ASSERT_TRUE(task) << task.error().message;
  auto space = TuningSpace::parse(source);
  ASSERT_TRUE(space) << space.error().message;
  auto first = space->configuration({{"BLOCK", "128"}, {"VEC", "4"}, {"ITEMS", "2"}});
  auto second = space->configuration({{"BLOCK", "256"}, {"VEC", "4"}, {"ITEMS", "1"}});
  ASSERT_TRUE(first && second);
  auto a = materialise(*space, *first, source, *task);
  auto b = materialise(*space, *second, source, *task);
  ASSERT_TRUE(a && b);
  SourceDiff const diff = diff_sources(a->source, b->source);
  auto is_define = [](std::string const& line) { return line.starts_with("#define "); };
  std::vector<std::string> removed = changed_lines(diff, '-');
  std::vector<std::string> added = changed_lines(diff, '+');
  std::vector<std::string> removed_defines, added_defines;
  std::copy_if(removed.begin(), removed.end(), std::back_inserter(removed_defines), is_define);
  std::copy_if(added.begin(), added.end(), std::back_inserter(added_defines), is_define);
  EXPECT_EQ(removed_defines, (std::vector<std::string>{"#define BLOCK 128", "#define ITEMS 2"}));
  EXPECT_EQ(added_defines, (std::vector<std::string>{"#define BLOCK 256", "#define ITEMS 1"}));
  // Besides the defines only comments change: the header naming the configuration and the
  // `// kopt:launch` line, which holds the numbers.
  EXPECT_EQ(removed.size(), removed_defines.size() + 2);
  EXPECT_EQ(added.size(), added_defines.size() + 2);
  EXPECT_EQ(removed.front(), "// kopt optimize: BLOCK=128;ITEMS=2;VEC=4");
  EXPECT_EQ(added.front(), "// kopt optimize: BLOCK=256;ITEMS=1;VEC=4");
  EXPECT_EQ(removed.back(), "// kopt:launch grid=(ceil_div(n, 128 * 4 * 2)) block=(128)");
  EXPECT_EQ(added.back(), "// kopt:launch grid=(ceil_div(n, 256 * 4 * 1)) block=(256)");
  // The unchanged VEC define is context, never a change.
  for (auto const* lines : {&removed, &added})
    EXPECT_EQ(std::count(lines->begin(), lines->end(), "#define VEC 4"), 0);
}

}  // namespace source_diff_test
}  // namespace kopt
