#include <gtest/gtest.h>

#include "kopt/measure.hpp"

namespace kopt {
namespace speed_of_light_test {

DeviceCeilings h100_like() {
  DeviceCeilings ceilings;
  ceilings.dram_bytes_per_s = 3.0e12;
  ceilings.fp32_flops_per_s = 60.0e12;
  ceilings.tensor_flops_per_s = 900.0e12;
  return ceilings;
}

TEST(SpeedOfLight, MemoryBoundFromBytes) {
  auto const sol = speed_of_light(3.0e9, std::nullopt, h100_like(), false);
  EXPECT_DOUBLE_EQ(sol.memory_us, 1000.0);  // 3 GB at 3 TB/s = 1 ms
  EXPECT_DOUBLE_EQ(sol.compute_us, 0.0);
  EXPECT_DOUBLE_EQ(sol.bound_us(), 1000.0);
}

TEST(SpeedOfLight, ComputeUsesTensorPeakOnlyWhenAllowed) {
  auto const fp32 = speed_of_light(std::nullopt, 60.0e9, h100_like(), false);
  EXPECT_DOUBLE_EQ(fp32.compute_us, 1000.0);
  auto const tensor = speed_of_light(std::nullopt, 90.0e9, h100_like(), true);
  EXPECT_DOUBLE_EQ(tensor.compute_us, 100.0);
  auto ceilings = h100_like();
  ceilings.tensor_flops_per_s = 0.0;  // unknown tensor peak: fall back to fp32
  auto const unknown = speed_of_light(std::nullopt, 60.0e9, ceilings, true);
  EXPECT_DOUBLE_EQ(unknown.compute_us, 1000.0);
}

TEST(SpeedOfLight, BoundIsTheLargerPart) {
  auto const sol = speed_of_light(3.0e6, 60.0e9, h100_like(), false);
  EXPECT_DOUBLE_EQ(sol.memory_us, 1.0);
  EXPECT_DOUBLE_EQ(sol.compute_us, 1000.0);
  EXPECT_DOUBLE_EQ(sol.bound_us(), 1000.0);
}

TEST(SpeedOfLight, MissingCeilingsGiveNoBound) {
  auto const sol = speed_of_light(1e9, 1e9, DeviceCeilings{}, true);
  EXPECT_DOUBLE_EQ(sol.bound_us(), 0.0);
  EXPECT_FALSE(implausibly_fast(0.001, sol));
}

TEST(ImplausiblyFast, BoundaryWithSlack) {
  SpeedOfLight sol;
  sol.memory_us = 125.0;
  EXPECT_TRUE(implausibly_fast(99.0, sol, 1.25));    // 123.75 < 125
  EXPECT_FALSE(implausibly_fast(100.0, sol, 1.25));  // 125 is not below 125
  EXPECT_TRUE(implausibly_fast(108.0, sol));         // default slack 1.15: 124.2 < 125
  EXPECT_FALSE(implausibly_fast(109.0, sol));        // 125.35
  EXPECT_FALSE(implausibly_fast(150.0, sol));
  EXPECT_FALSE(implausibly_fast(0.0, SpeedOfLight{}));  // no bound, never implausible
}

TEST(WatchdogDeadline, ClampsScaledReference) {
  EXPECT_DOUBLE_EQ(watchdog_deadline_ms(3000.0, 50.0, 100.0, 10000.0), 150.0);
  EXPECT_DOUBLE_EQ(watchdog_deadline_ms(10.0, 50.0, 100.0, 10000.0), 100.0);     // floor
  EXPECT_DOUBLE_EQ(watchdog_deadline_ms(1.0e6, 50.0, 100.0, 10000.0), 10000.0);  // ceiling
  EXPECT_DOUBLE_EQ(watchdog_deadline_ms(4000.0, 50.0, 100.0, 10000.0), 200.0);
}

}  // namespace speed_of_light_test
}  // namespace kopt
