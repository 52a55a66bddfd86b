// activity_for_profile: CUPTI's launches and busy time, the timing protocol's call time.
#include <gtest/gtest.h>

#include "kopt/eval.hpp"

namespace kopt {
namespace activity_for_profile_test {

SizeResult timed_size(double median_us) {
  SizeResult size;
  size.size = "large";
  KernelTiming timing;
  timing.us.median = median_us;
  size.candidate = timing;
  KernelActivity activity;
  activity.launches = 1;
  activity.kernel_us = 200.0;
  activity.call_us = 790.0;  // the one extra call, its host work exposed
  size.activity = activity;
  return size;
}

TEST(ActivityForProfile, TakesTheCallTimeFromTheTimedMedian) {
  auto const activity = activity_for_profile(timed_size(203.0));
  ASSERT_TRUE(activity);
  EXPECT_EQ(activity->launches, 1);
  EXPECT_EQ(activity->kernel_us, 200.0);
  EXPECT_EQ(activity->call_us, 203.0);
}

TEST(ActivityForProfile, KeepsTheRecordedCallWithoutATimingAndNothingWithoutActivity) {
  SizeResult untimed = timed_size(0.0);
  untimed.candidate.reset();
  EXPECT_EQ(activity_for_profile(untimed)->call_us, 790.0);
  SizeResult none = timed_size(203.0);
  none.activity.reset();
  EXPECT_FALSE(activity_for_profile(none));
  SizeResult kernel_mode = timed_size(203.0);
  kernel_mode.activity->from_cupti = false;
  kernel_mode.activity->call_us.reset();
  EXPECT_FALSE(activity_for_profile(kernel_mode)->call_us);
}

}  // namespace activity_for_profile_test
}  // namespace kopt
