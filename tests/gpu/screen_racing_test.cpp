// The screen tier's racing (docs/timing.md): a verified candidate that is clearly slower than the
// fastest one screened before it on a size stops sampling after two samples; the confirm tier never
// stops early.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "kopt/eval.hpp"
#include "kopt/task.hpp"

namespace kopt::testing {
namespace screen_racing_test {

// Correct but slow: 132 blocks of 128 threads walk the whole vector one float at a time.
constexpr char const* kSlowVectorAdd = R"(// kopt:launch grid=(132) block=(128)
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) c[i] = a[i] + b[i];
}
)";

std::vector<CandidateSource> fast_then_slow() {
  return {{"float4", source_path("examples/vector_add/candidates/vector_add_float4_kernel.cu"), ""},
          {"slow", "slow.cu", kSlowVectorAdd}};
}

Result<EvalReport> evaluate_with(TimingTier tier, TaskSpec const& task) {
  EvalOptions options = gpu_test_options();
  options.tier = tier;
  options.time_baseline = false;
  options.sizes = {"odd", "large"};
  auto evaluator = Evaluator::create(options);
  if (!evaluator) return evaluator.error();
  return (*evaluator)->evaluate(task, fast_then_slow());
}

TEST(ScreenRacing, StopsAClearLoserAfterTwoSamplesAndOnlyOnTheScreenTier) {
  auto task = load_task(source_path("examples/vector_add"));
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto screen = evaluate_with(TimingTier::screen, *task);
  if (!screen && screen.error().code == ErrorCode::no_gpu)
    GTEST_SKIP() << "no CUDA GPU: " << screen.error().message;
  ASSERT_TRUE(screen.ok()) << screen.error().message;
  ASSERT_EQ(screen->candidates.size(), 2u);
  CandidateReport const& fast = screen->candidates[0];
  CandidateReport const& slow = screen->candidates[1];
  ASSERT_EQ(fast.status, CandidateStatus::ok) << describe(fast);
  ASSERT_EQ(slow.status, CandidateStatus::ok) << describe(slow);
  SizeResult const* fast_large = find_size(fast, "large");
  SizeResult const* slow_large = find_size(slow, "large");
  ASSERT_TRUE(fast_large && fast_large->candidate && slow_large && slow_large->candidate);
  ASSERT_GT(slow_large->candidate->us.median, 1.5 * fast_large->candidate->us.median)
      << "the slow kernel is not slow enough for this test\n"
      << describe(slow);
  EXPECT_GE(fast_large->candidate->us.count, 5) << describe(fast);
  EXPECT_EQ(fast.message.find("stopped after"), std::string::npos) << describe(fast);
  EXPECT_EQ(slow_large->candidate->us.count, 2) << describe(slow);
  // The worker's timing note becomes the candidate's message.
  EXPECT_NE(slow.message.find("screen sampling stopped after 2 samples"), std::string::npos)
      << describe(slow);

  auto confirm = evaluate_with(TimingTier::confirm, *task);
  ASSERT_TRUE(confirm.ok()) << confirm.error().message;
  SizeResult const* confirmed = find_size(confirm->candidates[1], "large");
  ASSERT_TRUE(confirmed && confirmed->candidate) << describe(confirm->candidates[1]);
  EXPECT_GE(confirmed->candidate->us.count, 10) << describe(confirm->candidates[1]);
  EXPECT_EQ(confirm->candidates[1].message.find("stopped after"), std::string::npos);
}

}  // namespace screen_racing_test
}  // namespace kopt::testing
