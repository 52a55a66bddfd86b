// CompileQueue: background compiles in submission order, each distinct request built once.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "compile_test_support.hpp"
#include "kopt/compile.hpp"

namespace kopt::testing {
namespace compile_queue_test {

CompileRequest numbered_kernel(int i) {
  std::string const name = "k" + std::to_string(i);
  return kernel_request(
      "extern \"C\" __global__ void " + name + "(float* o) { o[0] = " + std::to_string(i) + ".0f; }\n", name);
}

std::size_t artifacts_in(std::filesystem::path const& dir) {
  std::size_t count = 0;
  for (auto const& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".cubin") ++count;
  }
  return count;
}

CompileOptions with_jobs(unsigned jobs) {
  CompileOptions options;
  options.jobs = jobs;
  return options;
}

TEST(CompileQueue, BuildsSubmittedRequestsInTheBackgroundAndHandsEachOverOnce) {
  TempDir cache;
  CompileQueue queue(make_compiler(cache.path(), with_jobs(2)));
  for (int i = 0; i < 4; ++i) queue.submit(numbered_kernel(i));
  EXPECT_EQ(queue.held(), 4u);
  for (int i = 0; i < 4; ++i) {
    auto outcome = queue.take(numbered_kernel(i));
    ASSERT_TRUE(outcome) << outcome.error().message;
    ASSERT_TRUE(outcome->ok) << outcome->diagnostics;
    EXPECT_FALSE(outcome->cache_hit);
    EXPECT_EQ(outcome->artifact.symbol, "k" + std::to_string(i));
  }
  EXPECT_EQ(queue.held(), 0u);
  EXPECT_EQ(artifacts_in(cache.path()), 4u);
}

TEST(CompileQueue, ARequestSubmittedTwiceIsCompiledOnce) {
  TempDir cache;
  CompileQueue queue(make_compiler(cache.path(), with_jobs(2)));
  queue.submit(numbered_kernel(7));
  queue.submit(numbered_kernel(7));
  EXPECT_EQ(queue.held(), 1u);
  auto outcome = queue.take(numbered_kernel(7));
  ASSERT_TRUE(outcome && outcome->ok);
  EXPECT_FALSE(outcome->cache_hit);
  // Taken: asking again builds again, and the disk cache answers.
  auto again = queue.take(numbered_kernel(7));
  ASSERT_TRUE(again && again->ok);
  EXPECT_TRUE(again->cache_hit);
  EXPECT_EQ(again->artifact.path, outcome->artifact.path);
}

TEST(CompileQueue, TakesWhatWasNeverSubmittedAndReportsCompileErrors) {
  TempDir cache;
  CompileQueue queue(make_compiler(cache.path(), with_jobs(1)));
  auto built = queue.take(numbered_kernel(1));
  ASSERT_TRUE(built && built->ok);
  CompileRequest broken = kernel_request("this is not CUDA", "k");
  queue.submit(broken);
  auto failed = queue.take(broken);
  ASSERT_TRUE(failed) << "a candidate's own error is an outcome, not an Error";
  EXPECT_FALSE(failed->ok);
  EXPECT_FALSE(failed->diagnostics.empty());
}

TEST(CompileQueue, ARequestTakenBeforeItStartedGoesAheadOfTheQueue) {
  TempDir cache;
  CompileQueue queue(make_compiler(cache.path(), with_jobs(1)));
  for (int i = 0; i < 6; ++i) queue.submit(numbered_kernel(i));
  queue.submit(numbered_kernel(99));
  auto outcome = queue.take(numbered_kernel(99));
  ASSERT_TRUE(outcome && outcome->ok);
  // One thread: at most k0 (started before the take) and one more can have started meanwhile.
  EXPECT_GE(queue.queued(), 4u);
}

TEST(CompileQueue, ClosingDropsWhatHasNotStarted) {
  TempDir cache;
  {
    CompileQueue queue(make_compiler(cache.path(), with_jobs(1)));
    for (int i = 0; i < 20; ++i) queue.submit(numbered_kernel(i));
  }
  EXPECT_LE(artifacts_in(cache.path()), 2u);
}

}  // namespace compile_queue_test
}  // namespace kopt::testing
