// Kernel activity (CUPTI) on a real GPU: a launcher of 16 tiny kernels comes back with 16 launches and is
// flagged by the launch_overhead tool; a kernel-mode candidate is one launch. Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu_test_support.hpp"
#include "kopt/analysis.hpp"
#include "kopt/eval.hpp"
#include "kopt/profile_candidate.hpp"
#include "kopt/task.hpp"

namespace kopt::testing {
namespace kernel_activity_test {

constexpr int kSplitLaunches = 16;  // tests/gpu/launches/vector_add_split_launcher.cu

struct Evaluated {
  std::optional<CandidateReport> candidate;
  std::string skip;
};

Evaluated evaluate_medium(std::filesystem::path const& file) {
  Evaluated out;
  auto task = load_task(source_path("examples/vector_add"));
  EXPECT_TRUE(task.ok()) << (task.ok() ? "" : task.error().message);
  if (!task.ok()) return out;
  EvalOptions options = gpu_test_options();
  options.sizes = {"medium"};
  auto evaluator = Evaluator::create(options);
  if (gpu_missing(evaluator)) {
    out.skip = evaluator.error().message;
    return out;
  }
  EXPECT_TRUE(evaluator.ok()) << (evaluator.ok() ? "" : evaluator.error().message);
  if (!evaluator.ok()) return out;
  auto report = (*evaluator)->evaluate(*task, {CandidateSource{file.filename().string(), file, ""}});
  EXPECT_TRUE(report.ok()) << (report.ok() ? "" : report.error().message);
  if (!report.ok() || report->candidates.size() != 1) return out;
  out.candidate = report->candidates.front();
  return out;
}

TEST(KernelActivity, LauncherOfManyTinyKernelsIsCountedAndFlaggedForLaunchOverhead) {
  Evaluated run = evaluate_medium(source_path("tests/gpu/launches/vector_add_split_launcher.cu"));
  if (!run.skip.empty()) GTEST_SKIP() << "no CUDA GPU: " << run.skip;
  ASSERT_TRUE(run.candidate.has_value());
  CandidateReport const& c = *run.candidate;
  ASSERT_EQ(c.status, CandidateStatus::ok) << describe(c);
  EXPECT_EQ(c.mode, CandidateMode::launcher);
  SizeResult const* medium = find_size(c, "medium");
  ASSERT_NE(medium, nullptr) << describe(c);
  ASSERT_TRUE(medium->activity.has_value()) << "no kernel activity: " << medium->message;
  KernelActivity const& a = *medium->activity;
  EXPECT_TRUE(a.from_cupti);
  EXPECT_EQ(a.launches, kSplitLaunches);
  ASSERT_TRUE(a.kernel_us && a.span_us && a.call_us);
  EXPECT_GT(*a.kernel_us, 0.0);
  EXPECT_LE(*a.kernel_us, *a.span_us + 1e-9);
  EXPECT_LE(*a.span_us, *a.call_us * 1.05 + 1.0) << "kernels run inside the call's events";
  ASSERT_FALSE(a.kernels.empty());
  EXPECT_NE(a.kernels[0].name.find("vector_add_chunk"), std::string::npos) << a.kernels[0].name;
  EXPECT_EQ(a.kernels[0].count, kSplitLaunches);
  EXPECT_GT(c.phases.activity_ms, 0.0);
  EXPECT_LT(c.phases.activity_ms, 2000.0) << "one extra call per size (CUPTI's first enable included)";

  WorkFacts work;
  add_activity_facts(a, work);
  auto const findings = analyze(classify_roofline(work), {}, {}, work);
  auto const flagged = std::find_if(findings.begin(), findings.end(),
                                    [](Finding const& f) { return f.tool == "launch_overhead"; });
  EXPECT_NE(flagged, findings.end()) << "16 launches, kernels " << *a.kernel_us << " us of a " << *a.call_us
                                     << " us call";
}

TEST(KernelActivity, KernelModeCandidateIsOneLaunch) {
  Evaluated run = evaluate_medium(source_path("examples/vector_add/candidates/vector_add_float4_kernel.cu"));
  if (!run.skip.empty()) GTEST_SKIP() << "no CUDA GPU: " << run.skip;
  ASSERT_TRUE(run.candidate.has_value());
  ASSERT_EQ(run.candidate->status, CandidateStatus::ok) << describe(*run.candidate);
  EXPECT_EQ(run.candidate->mode, CandidateMode::kernel);
  SizeResult const* medium = find_size(*run.candidate, "medium");
  ASSERT_NE(medium, nullptr);
  ASSERT_TRUE(medium->activity.has_value());
  EXPECT_EQ(medium->activity->launches, 1);
  EXPECT_FALSE(medium->activity->from_cupti);
}

}  // namespace kernel_activity_test
}  // namespace kopt::testing
