// The example tasks under examples/ are what a new user runs first: every hand-written candidate
// must verify on every size and beat the naive reference at the largest size, and the reference
// itself, evaluated as a candidate of its own task, must be ok. Without a GPU these report SKIPPED.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu_test_support.hpp"
#include "kopt/eval.hpp"
#include "kopt/task.hpp"

namespace kopt::testing {
namespace examples_test {

std::vector<std::string> example_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (auto const& entry : std::filesystem::directory_iterator(source_path("examples"), ec)) {
    if (std::filesystem::exists(entry.path() / "task.toml"))
      names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<CandidateSource> example_candidates(std::filesystem::path const& dir) {
  std::vector<CandidateSource> candidates;
  std::error_code ec;
  for (auto const& entry : std::filesystem::directory_iterator(dir / "candidates", ec)) {
    if (entry.path().extension() == ".cu")
      candidates.push_back({entry.path().filename().string(), entry.path(), ""});
  }
  std::sort(candidates.begin(), candidates.end(),
            [](CandidateSource const& a, CandidateSource const& b) { return a.name < b.name; });
  return candidates;
}

// The last size case that is timed: the examples list their sizes from small to large.
std::string largest_timed_size(TaskSpec const& task) {
  std::string largest;
  for (auto const& size : task.sizes) {
    if (!size.verify_only) largest = size.name;
  }
  return largest;
}

TEST(ExampleSuiteTest, HasTheFourExamples) {
  auto const names = example_names();
  for (char const* name : {"sgemm", "softmax", "transpose", "vector_add"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end())
        << "examples/" << name << " is missing";
  }
}

TEST(ExampleSuiteTest, EveryExampleLoadsAndHasBothCandidateModes) {
  for (auto const& name : example_names()) {
    SCOPED_TRACE(name);
    auto task = load_task(source_path("examples") / name);
    ASSERT_TRUE(task.ok()) << task.error().message;
    EXPECT_TRUE(task->launch.has_value()) << "kernel-mode candidates need a [launch] section";
    EXPECT_TRUE(task->work.bytes.has_value());
    EXPECT_TRUE(task->work.flops.has_value());
    bool has_kernel = false;
    bool has_launcher = false;
    for (auto const& candidate : example_candidates(task->dir)) {
      std::string const entry =
          task->launch && !task->launch->kernel.empty() ? task->launch->kernel : task->signature.function;
      auto mode = detect_mode(read_text(candidate.path), entry);
      ASSERT_TRUE(mode.has_value()) << candidate.name << ": no entry '" << entry << "' detected";
      has_kernel = has_kernel || *mode == CandidateMode::kernel;
      has_launcher = has_launcher || *mode == CandidateMode::launcher;
    }
    EXPECT_TRUE(has_kernel) << "no kernel-mode candidate";
    EXPECT_TRUE(has_launcher) << "no launcher-mode candidate";
  }
}

class ExampleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ExampleTest, CandidatesVerifyAndBeatTheReference) {
  auto task = load_task(source_path("examples") / GetParam());
  ASSERT_TRUE(task.ok()) << task.error().message;
  auto evaluator = Evaluator::create(gpu_test_options());
  if (gpu_missing(evaluator)) GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;

  std::vector<CandidateSource> candidates = example_candidates(task->dir);
  ASSERT_FALSE(candidates.empty());
  candidates.push_back({"reference", task->reference.path, ""});
  auto report = (*evaluator)->evaluate(*task, candidates);
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_EQ(report->candidates.size(), candidates.size());

  std::string const largest = largest_timed_size(*task);
  for (auto const& candidate : report->candidates) {
    SCOPED_TRACE(candidate.name);
    EXPECT_EQ(candidate.status, CandidateStatus::ok) << describe(candidate);
    EXPECT_EQ(candidate.sizes.size(), task->sizes.size()) << describe(candidate);
    for (auto const& size : candidate.sizes) {
      EXPECT_EQ(size.status, CandidateStatus::ok) << "size " << size.size << "\n" << describe(candidate);
    }
    if (candidate.name == "reference") continue;
    SizeResult const* size = find_size(candidate, largest);
    ASSERT_NE(size, nullptr) << describe(candidate);
    ASSERT_TRUE(size->speedup.has_value()) << describe(candidate);
    EXPECT_GT(*size->speedup, 1.0) << "not faster than the reference at size " << largest << "\n"
                                   << describe(candidate);
    if (task->baseline) {
      EXPECT_TRUE(size->baseline.has_value()) << "the vendor baseline was not timed\n" << describe(candidate);
    }
  }
}

std::string example_test_name(::testing::TestParamInfo<std::string> const& param) {
  return param.param;
}

INSTANTIATE_TEST_SUITE_P(Examples, ExampleTest, ::testing::ValuesIn(example_names()), example_test_name);

}  // namespace examples_test
}  // namespace kopt::testing
