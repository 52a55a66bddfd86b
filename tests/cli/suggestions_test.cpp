#include "cli/suggestions.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kopt::cli {
namespace suggestions_test {

TEST(Suggestions, EditDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps) {
  EXPECT_EQ(edit_distance("eval", "eval"), 0u);
  EXPECT_EQ(edit_distance("evl", "eval"), 1u);
  EXPECT_EQ(edit_distance("evall", "eval"), 1u);
  EXPECT_EQ(edit_distance("evel", "eval"), 1u);
  EXPECT_EQ(edit_distance("--budgte", "--budget"), 1u);  // one swap
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(Suggestions, NearestWordStaysWithinAnAllowanceThatGrowsWithLength) {
  std::vector<std::string> const commands = {"init", "task", "eval", "doctor", "optimize", "runs", "export"};
  EXPECT_EQ(nearest_word("evl", commands), "eval");
  EXPECT_EQ(nearest_word("optimise", commands), "optimize");
  EXPECT_EQ(nearest_word("doctro", commands), "doctor");
  EXPECT_EQ(nearest_word("xyz", commands), std::nullopt);
  EXPECT_EQ(nearest_word("", commands), std::nullopt);
  EXPECT_EQ(nearest_word(std::string(10000, 'e'), commands), std::nullopt);
}

TEST(Suggestions, AnUnambiguousPrefixIsSuggested) {
  std::vector<std::string> const options = {"--budget", "--time", "--strategy", "--strategies", "--seed"};
  EXPECT_EQ(nearest_word("--bud", options), "--budget");
  EXPECT_EQ(nearest_word("--strat", options), std::nullopt);  // two options start with it
}

}  // namespace suggestions_test
}  // namespace kopt::cli
