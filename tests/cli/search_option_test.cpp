#include <gtest/gtest.h>

#include "cli/parse_support.hpp"
#include "kopt/search.hpp"

namespace kopt::cli {
namespace search_option_test {

using test::parse;

TEST(SearchOption, OptimizeTakesEveryRegisteredStrategy) {
  for (std::string const& name : search_strategy_names()) {
    auto const run = parse({"optimize", "t", "--from", "k.cu", "--search", name.c_str()});
    ASSERT_TRUE(run.parsed.arguments) << name << ": " << run.err;
    EXPECT_EQ(run.parsed.arguments->optimize.strategy, name);
    EXPECT_TRUE(run.err.empty()) << run.err;
  }
  auto const unknown = parse({"optimize", "t", "--from", "k.cu", "--search", "annealing"});
  EXPECT_EQ(unknown.parsed.exit_code, 2);
  EXPECT_NE(unknown.err.find("annealing"), std::string::npos) << unknown.err;
}

TEST(SearchOption, TheOldSpellingStillWorksWithOneDeprecationLine) {
  auto const run = parse({"optimize", "t", "--from", "k.cu", "--strategy", "random"});
  ASSERT_TRUE(run.parsed.arguments) << run.err;
  EXPECT_EQ(run.parsed.arguments->optimize.strategy, "random");
  EXPECT_EQ(run.err,
            "kopt: warning: --strategy is deprecated (removed after the next release): use --search\n");
  EXPECT_TRUE(run.out.empty()) << run.out;  // stdout stays clean for --json
  EXPECT_EQ(parse({"optimize", "t", "--from", "k.cu", "--strategy", "annealing"}).parsed.exit_code, 2);
}

TEST(SearchOption, BothSpellingsTogetherAreAUsageError) {
  auto const run = parse({"optimize", "t", "--from", "k.cu", "--search", "mcts", "--strategy", "greedy"});
  EXPECT_EQ(run.parsed.exit_code, 2);
}

TEST(SearchOption, HelpNamesSearchAndMarksTheOldSpellingDeprecated) {
  auto const run = parse({"optimize", "--help"});
  EXPECT_NE(run.out.find("--search"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("deprecated spelling of --search"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--search greedy"), std::string::npos) << run.out;  // the example
}

TEST(SearchOption, BenchTakesEveryRegisteredStrategy) {
  for (std::string const& name : search_strategy_names()) {
    auto const run = parse({"bench", "suites/", "--search", name.c_str()});
    ASSERT_TRUE(run.parsed.arguments) << name << ": " << run.err;
    EXPECT_EQ(run.parsed.arguments->bench.search, name);
  }
  EXPECT_EQ(parse({"bench", "suites/", "--search", "annealing"}).parsed.exit_code, 2);
}

}  // namespace search_option_test
}  // namespace kopt::cli
