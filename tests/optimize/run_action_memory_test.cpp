#include "optimize/run_action_memory.hpp"

#include <gtest/gtest.h>

namespace kopt::optimize_detail {
namespace run_action_memory_test {

TEST(RunActionMemory, CombinesThePriorWithThisRunsOutcomes) {
  RunActionMemory memory({{"BLOCK:+1", 3, 0.3}, {"VEC:-1", 0, 9.0}});
  EXPECT_EQ(memory.stats("BLOCK:+1").tries, 3);
  EXPECT_DOUBLE_EQ(memory.stats("BLOCK:+1").mean_gain, 0.3);
  EXPECT_EQ(memory.stats("VEC:-1").tries, 0);  // an entry without tries carries no information
  EXPECT_EQ(memory.stats("ITEMS:+1").tries, 0);

  memory.record("BLOCK:+1", -0.5);
  EXPECT_EQ(memory.stats("BLOCK:+1").tries, 4);
  EXPECT_DOUBLE_EQ(memory.stats("BLOCK:+1").mean_gain, (3 * 0.3 - 0.5) / 4);
  memory.record("ITEMS:+1", 0.2);
  EXPECT_EQ(memory.stats("ITEMS:+1").tries, 1);
  EXPECT_DOUBLE_EQ(memory.stats("ITEMS:+1").mean_gain, 0.2);

  ASSERT_EQ(memory.outcomes().size(), 2u);  // this run's outcomes only, in order
  EXPECT_EQ(memory.outcomes()[0].first, "BLOCK:+1");
  EXPECT_DOUBLE_EQ(memory.outcomes()[0].second, -0.5);
  EXPECT_EQ(memory.outcomes()[1].first, "ITEMS:+1");
}

TEST(RunActionMemory, HugePriorsDoNotOverflow) {
  RunActionMemory memory({{"A:+1", std::int64_t{1} << 40, 0.1}});
  memory.record("A:+1", 0.1);
  EXPECT_GT(memory.stats("A:+1").tries, 0);
  EXPECT_NEAR(memory.stats("A:+1").mean_gain, 0.1, 1e-12);
}

}  // namespace run_action_memory_test
}  // namespace kopt::optimize_detail
