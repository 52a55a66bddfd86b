// `kopt energy`'s command line: every option, the defaults, and values out of range.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "cli/arguments.hpp"
#include "parse_support.hpp"

namespace kopt::cli {
namespace energy_arguments_test {

using test::parse;

TEST(EnergyArguments, TakesEveryOption) {
  auto run = parse({"energy", "examples/vector_add", "cand.cu", "--size", "medium", "--window", "4.5",
                    "--cooldown", "0", "--trials", "5", "--no-reference", "--device", "1", "--json"});
  ASSERT_TRUE(run.parsed.arguments.has_value()) << run.err;
  auto const& args = *run.parsed.arguments;
  EXPECT_EQ(args.command, "energy");
  EXPECT_EQ(args.energy.task_dir, "examples/vector_add");
  EXPECT_EQ(args.energy.candidate, "cand.cu");
  EXPECT_EQ(args.energy.size, "medium");
  EXPECT_DOUBLE_EQ(args.energy.window_s, 4.5);
  EXPECT_DOUBLE_EQ(args.energy.cooldown_s, 0.0);
  EXPECT_EQ(args.energy.trials, 5);
  EXPECT_TRUE(args.energy.no_reference);
  EXPECT_EQ(args.energy.device, 1);
  EXPECT_TRUE(args.energy.json);
}

TEST(EnergyArguments, DefaultsFollowTheIssue) {
  auto run = parse({"energy", "task", "cand.cu"});
  ASSERT_TRUE(run.parsed.arguments.has_value()) << run.err;
  auto const& e = run.parsed.arguments->energy;
  EXPECT_TRUE(e.size.empty());
  EXPECT_DOUBLE_EQ(e.window_s, 2.0);
  EXPECT_DOUBLE_EQ(e.cooldown_s, 1.0);
  EXPECT_EQ(e.trials, 3);
  EXPECT_FALSE(e.no_reference);
  EXPECT_FALSE(e.json);
}

TEST(EnergyArguments, RejectsValuesOutOfRange) {
  for (auto const& bad :
       std::vector<std::vector<char const*>>{{"energy", "task", "cand.cu", "--window", "0"},
                                             {"energy", "task", "cand.cu", "--window", "soon"},
                                             {"energy", "task", "cand.cu", "--cooldown", "-1"},
                                             {"energy", "task", "cand.cu", "--trials", "0"}}) {
    auto run = parse(bad);
    EXPECT_FALSE(run.parsed.arguments.has_value()) << bad[3] << " " << bad[4];
    EXPECT_EQ(run.parsed.exit_code, 2);
    EXPECT_NE(run.err.find(bad[3]), std::string::npos) << run.err;
  }
}

TEST(EnergyArguments, NeedsTheTaskAndTheCandidate) {
  auto run = parse({"energy", "task"});
  EXPECT_FALSE(run.parsed.arguments.has_value());
  EXPECT_EQ(run.parsed.exit_code, 2);
  EXPECT_NE(run.err.find("candidate"), std::string::npos) << run.err;
}

TEST(EnergyArguments, HelpExplainsTheWindow) {
  auto run = parse({"energy", "--help"});
  EXPECT_FALSE(run.parsed.arguments.has_value());
  EXPECT_EQ(run.parsed.exit_code, 0);
  EXPECT_NE(run.out.find("--cooldown"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("100 ms"), std::string::npos) << run.out;
}

}  // namespace energy_arguments_test
}  // namespace kopt::cli
