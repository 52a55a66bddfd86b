// TuningSpace::parse: the kopt:knob, kopt:flag and kopt:constraint annotations.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kopt/tuning.hpp"

namespace kopt {
namespace annotation_parser_test {

TEST(TuningParse, ReadsKnobsFlagsAndConstraints) {
  auto space = TuningSpace::parse(R"(// A kernel.
// kopt:knob BLOCK = [64, 128, 256, 512]
  //   kopt:knob UNROLL = range(1, 8)
// kopt:flag FAST_MATH = ["", "--use_fast_math"]
// kopt:constraint BLOCK * UNROLL <= 2048
// kopt:launch grid=(ceil_div(N, BLOCK*UNROLL)) block=(BLOCK)
__global__ void k() {}  // kopt:knob NOT_AT_LINE_START = [1]
)",
                                  "cand.cu");
  ASSERT_TRUE(space) << space.error().message;
  ASSERT_EQ(space->knobs().size(), 3u);
  Knob const& block = space->knobs()[0];
  EXPECT_EQ(block.name, "BLOCK");
  EXPECT_EQ(block.kind, KnobKind::integer);
  EXPECT_EQ(block.values, (std::vector<std::int64_t>{64, 128, 256, 512}));
  EXPECT_EQ(block.line, 2u);
  EXPECT_EQ(block.trend, ResourceTrend::increasing);
  EXPECT_EQ(space->knobs()[1].values, (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  Knob const& fast = space->knobs()[2];
  EXPECT_EQ(fast.kind, KnobKind::flag);
  EXPECT_EQ(fast.flags, (std::vector<std::string>{"", "--use_fast_math"}));
  EXPECT_EQ(fast.trend, ResourceTrend::none);
  ASSERT_EQ(space->constraints().size(), 1u);
  EXPECT_EQ(space->constraints()[0].expr.text(), "BLOCK * UNROLL <= 2048");
  EXPECT_EQ(space->constraints()[0].line, 5u);
  EXPECT_EQ(space->dimensions(), (std::vector<std::size_t>{4, 8, 2}));
  EXPECT_EQ(space->raw_size(), 64u);
  EXPECT_NE(space->find_knob("UNROLL"), nullptr);
  EXPECT_EQ(space->find_knob("NOT_AT_LINE_START"), nullptr);
}

TEST(TuningParse, RangesWithStepsIncludeBothEndsWhenReached) {
  auto space = TuningSpace::parse(
      "// kopt:knob A = range(0, 12, 4)\n// kopt:knob B = range(1, 8, 3)\n// kopt:knob C = range(-2, 2)\n"
      "// kopt:knob D = range(5, 5)\n// kopt:knob E = [-1, 0, 7]\n");
  ASSERT_TRUE(space) << space.error().message;
  EXPECT_EQ(space->knobs()[0].values, (std::vector<std::int64_t>{0, 4, 8, 12}));
  EXPECT_EQ(space->knobs()[1].values, (std::vector<std::int64_t>{1, 4, 7}));
  EXPECT_EQ(space->knobs()[2].values, (std::vector<std::int64_t>{-2, -1, 0, 1, 2}));
  EXPECT_EQ(space->knobs()[3].values, (std::vector<std::int64_t>{5}));
  EXPECT_EQ(space->knobs()[4].values, (std::vector<std::int64_t>{-1, 0, 7}));
}

TEST(TuningParse, ResourceTrendAttribute) {
  auto space = TuningSpace::parse(
      "// kopt:knob MIN_BLOCKS = [1, 2, 4] resources=decreasing\n// kopt:knob MODE = [0, 1] "
      "resources=none\n");
  ASSERT_TRUE(space) << space.error().message;
  EXPECT_EQ(space->knobs()[0].trend, ResourceTrend::decreasing);
  EXPECT_EQ(space->knobs()[1].trend, ResourceTrend::none);
}

TEST(TuningParse, SourceWithoutAnnotationsIsAnEmptySpaceOfOneConfiguration) {
  auto space = TuningSpace::parse("// kopt:launch grid=(N) block=(256)\n__global__ void k() {}\n");
  ASSERT_TRUE(space) << space.error().message;
  EXPECT_TRUE(space->empty());
  EXPECT_EQ(space->raw_size(), 1u);
}

struct BadCase {
  char const* source;
  char const* expected;  // a substring of the message
};

class TuningParseErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(TuningParseErrors, NameTheLineAndTheProblem) {
  auto space = TuningSpace::parse(GetParam().source, "cand.cu");
  ASSERT_FALSE(space) << GetParam().source;
  EXPECT_EQ(space.error().code, ErrorCode::invalid_spec);
  EXPECT_NE(space.error().message.find(GetParam().expected), std::string::npos) << space.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, TuningParseErrors,
    ::testing::Values(
        BadCase{"\n\n// kopt:knob BLOCK = []\n",
                "cand.cu:3: kopt:knob BLOCK: an empty list; expected at least one value"},
        BadCase{"// kopt:knob BLOCK = [64, 64]\n", "cand.cu:1: kopt:knob BLOCK: value 64 listed twice"},
        BadCase{"// kopt:knob BLOCK = [64, x]\n",
                "cand.cu:1: kopt:knob BLOCK: 'x]' in the list; expected a 64-bit integer"},
        BadCase{"// kopt:knob BLOCK = [64, 1.5]\n", "expected a 64-bit integer"},
        BadCase{"// kopt:knob BLOCK = [64, 128\n", "expected ',' or ']'"},
        BadCase{"// kopt:knob BLOCK [64]\n",
                "cand.cu:1: kopt:knob BLOCK: '[64]' after the name; expected '='"},
        BadCase{"// kopt:knob = [64]\n", "cand.cu:1: kopt:knob: no knob name"},
        BadCase{"// kopt:knob 9X = [1]\n", "kopt:knob"},
        BadCase{"// kopt:knob U = range(8, 1)\n", "range(8, 1) is empty"},
        BadCase{"// kopt:knob U = range(1, 8, 0)\n", "range step 0; expected a step of at least 1"},
        BadCase{"// kopt:knob U = range(1)\n", "range with 1 argument(s)"},
        BadCase{"// kopt:knob U = range(0, 100000)\n", "range has 100001 values; expected at most 4096"},
        BadCase{"// kopt:knob U = 4\n", "expected a list [v1, v2, ...] or range(lo, hi[, step])"},
        BadCase{"// kopt:knob U = [1] extra\n", "unexpected 'extra' after the values"},
        BadCase{"// kopt:knob U = [1] resources=sideways\n", "resources='sideways'; expected increasing"},
        BadCase{"// kopt:knob A = [1]\n// kopt:flag A = [\"\"]\n",
                "cand.cu:2: kopt:flag A: 'A' is already declared on line 1"},
        BadCase{"// kopt:knob block = [1]\n", "'block' is reserved"},
        BadCase{"// kopt:knob threadIdx = [1]\n", "'threadIdx' is reserved"},
        BadCase{"// kopt:knob __X = [1]\n", "starts with '__'"},
        BadCase{"// kopt:flag F = [\"\", use_fast_math]\n", "in the list; expected a list of quoted flags"},
        BadCase{"// kopt:flag F = [\"\", \"use_fast_math\"]\n", "not an option"},
        BadCase{"// kopt:flag F = [\"-a\", \"-a\"]\n", "\"-a\" listed twice"},
        BadCase{"// kopt:flag F = [\"-DX=$(rm)\"]\n", "holds a quote, backslash, '$' or ';'"},
        BadCase{"// kopt:constraint\n", "cand.cu:1: kopt:constraint: no expression"},
        BadCase{"\n// kopt:constraint BLOCK <= \n",
                "cand.cu:2: kopt:constraint: 'BLOCK <=': missing operand"},
        BadCase{"// kopt:knobs BLOCK = [1]\n", "cand.cu:1: kopt:knobs: unknown annotation"}));

TEST(TuningParse, ReportsEveryProblemAtOnceInSourceOrder) {
  auto space =
      TuningSpace::parse("// kopt:knob A = []\n// kopt:knob B = [1]\n// kopt:constraint (A\n", "x.cu");
  ASSERT_FALSE(space);
  std::string const& message = space.error().message;
  std::size_t const first = message.find("x.cu:1:");
  std::size_t const second = message.find("x.cu:3:");
  ASSERT_NE(first, std::string::npos) << message;
  ASSERT_NE(second, std::string::npos) << message;
  EXPECT_LT(first, second);
  EXPECT_EQ(message.find("x.cu:2:"), std::string::npos) << message;
}

}  // namespace annotation_parser_test
}  // namespace kopt
