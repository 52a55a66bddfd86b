// What a user sees for a bare `kopt`, a mistyped command or option, and a number out of range.
#include "cli/usage_guide.hpp"

#include <gtest/gtest.h>

#include <string>

#include "parse_support.hpp"

namespace kopt::cli {
namespace usage_guide_test {

using test::parse;

// A bare `kopt` is a usage error (exit 2, nothing on stdout) that lists the commands on stderr.
TEST(UsageGuide, BareKoptListsEveryCommandWithItsSummary) {
  auto run = parse({});
  EXPECT_FALSE(run.parsed.arguments.has_value());
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_EQ(run.err.rfind("kopt: error: expected a command\n", 0), 0u) << run.err;
  for (char const* command :
       {"init", "task check", "eval", "doctor", "optimize", "runs", "export", "report", "profile",
        "calibrate", "energy", "strategies", "bench", "generate", "completion"}) {
    EXPECT_NE(run.err.find(std::string("\n  ") + command + " "), std::string::npos) << command << "\n"
                                                                                    << run.err;
  }
  EXPECT_NE(run.err.find("Verify candidate kernels against the task's reference on every size case"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("kopt <command> --help"), std::string::npos);
  EXPECT_EQ(run.err.find("A subcommand is required"), std::string::npos);
}

TEST(UsageGuide, OnlyGlobalFlagsStillListTheCommands) {
  auto run = parse({"--no-color"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("Commands:"), std::string::npos);
}

TEST(UsageGuide, AMistypedCommandGetsASuggestion) {
  auto run = parse({"evl", "tasks/x", "a.cu"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("unknown command 'evl'; did you mean 'eval'?"), std::string::npos) << run.err;
}

TEST(UsageGuide, AMistypedNestedCommandGetsTheWholePath) {
  auto run = parse({"task", "chek", "tasks/x"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("unknown command 'task chek'; did you mean 'task check'?"), std::string::npos)
      << run.err;
}

TEST(UsageGuide, AGroupWithoutItsCommandNamesThem) {
  auto run = parse({"task"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("'kopt task' needs a command: check"), std::string::npos) << run.err;
}

TEST(UsageGuide, AWordFarFromEveryCommandListsThem) {
  auto run = parse({"frobnicate"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("unknown command 'frobnicate'; kopt has: init, import-torch, task, eval"),
            std::string::npos)
      << run.err;
}

TEST(UsageGuide, AMistypedOptionGetsASuggestionAndItsValueIsNotBlamed) {
  auto run = parse({"optimize", "tasks/x", "--budgte", "5"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("unknown option '--budgte' for 'kopt optimize'; did you mean '--budget'?"),
            std::string::npos)
      << run.err;
  EXPECT_EQ(run.err.find("'5'"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("kopt optimize --help"), std::string::npos) << run.err;
}

TEST(UsageGuide, AnOptionWrittenWithItsValueIsSuggestedToo) {
  auto run = parse({"eval", "tasks/x", "a.cu", "--tierr=screen"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("unknown option '--tierr' for 'kopt eval'; did you mean '--tier'?"),
            std::string::npos)
      << run.err;
}

TEST(UsageGuide, AnUnknownOptionFarFromEveryOptionIsNamed) {
  auto run = parse({"runs", "--zzzzzzzz"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("unknown option '--zzzzzzzz' for 'kopt runs'"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("did you mean"), std::string::npos) << run.err;
}

TEST(UsageGuide, HelpAndVersionStillWorkWithoutACommand) {
  EXPECT_EQ(parse({"--help"}).parsed.exit_code, 0);
  EXPECT_NE(parse({"--version"}).out.find("kopt "), std::string::npos);
}

TEST(UsageGuide, AnErrorIsAlsoJsonWhenAsked) {
  auto run = parse({"evl", "--json"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.out.find("\"error\""), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("did you mean 'eval'"), std::string::npos) << run.out;
}

TEST(OptionRanges, ABudgetOfZeroSaysWhatIsExpectedInWords) {
  auto run = parse({"optimize", "tasks/x", "--budget", "0"});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("--budget: expected a whole number of at least 1, got '0'"), std::string::npos)
      << run.err;
  EXPECT_LT(run.err.size(), 300u) << run.err;  // no 309-digit limits of double
}

TEST(OptionRanges, FractionsNegativesAndHugeValuesAreRefusedPlainly) {
  struct Case {
    std::vector<char const*> args;
    char const* expected;
  };
  std::vector<Case> const cases = {
      {{"optimize", "t", "--budget", "1.5"}, "--budget: expected a whole number of at least 1, got '1.5'"},
      {{"optimize", "t", "--budget", "99999999999999999999999"}, "expected a whole number of at least 1"},
      {{"optimize", "t", "--time", "-1"}, "--time: expected a number of at least 0, got '-1'"},
      {{"optimize", "t", "--repairs", "17"}, "--repairs: expected a whole number from 0 to 16, got '17'"},
      {{"optimize", "t", "--max-cost", "0"}, "--max-cost: expected a number above 0, got '0'"},
      {{"eval", "t", "a.cu", "--device", "-1"}, "--device: expected a whole number of at least 0, got '-1'"},
      {{"eval", "t", "a.cu", "--timeout-floor-ms", "nan"}, "expected a number above 0, got 'nan'"},
  };
  for (auto const& c : cases) {
    auto run = parse(c.args);
    EXPECT_EQ(run.parsed.exit_code, 2) << c.expected;
    EXPECT_NE(run.err.find(c.expected), std::string::npos) << run.err;
  }
}

TEST(OptionRanges, ALongValueIsShortenedInTheMessage) {
  std::string const value(20000, '7');
  auto run = parse({"optimize", "t", "--budget", value.c_str()});
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("(20000 characters)"), std::string::npos) << run.err.substr(0, 300);
  EXPECT_LT(run.err.size(), 1000u);
}

TEST(OptionRanges, ValuesInRangeAreTaken) {
  auto run = parse({"optimize", "t", "--budget", "+7", "--time", "2.5", "--repairs", "0"});
  ASSERT_TRUE(run.parsed.arguments.has_value()) << run.err;
  EXPECT_EQ(run.parsed.arguments->optimize.budget, 7u);
  EXPECT_DOUBLE_EQ(run.parsed.arguments->optimize.time_s, 2.5);
}

}  // namespace usage_guide_test
}  // namespace kopt::cli
