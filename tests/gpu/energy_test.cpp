// `kopt energy` on a real GPU: the vector_add example's float4 candidate and its reference measured over
// 2 s windows through NVML, with plausible joules and power.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"
#include "kopt/eval.hpp"

namespace kopt::testing {
namespace energy_test {

TEST(Energy, VectorAddCandidateAndReferenceOverTwoSecondWindows) {
  auto evaluator = Evaluator::create(gpu_test_options());
  if (gpu_missing(evaluator)) GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;
  auto task = load_task(source_path("examples/vector_add"));
  ASSERT_TRUE(task.ok()) << task.error().message;
  CandidateSource candidate;
  candidate.path = source_path("examples/vector_add/candidates/vector_add_float4_kernel.cu");
  candidate.name = candidate.path.filename().string();
  EnergyOptions options;
  options.size = "large";
  options.window_s = 2.0;
  options.cooldown_s = 0.5;
  options.trials = 2;
  auto report = (*evaluator)->measure_energy(*task, candidate, options);
  if (!report && report.error().code == ErrorCode::not_found &&
      report.error().message.find("energy: unavailable") != std::string::npos) {
    GTEST_SKIP() << report.error().message;  // a GPU without NVML's energy counter
  }
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_EQ(report->status, CandidateStatus::ok) << report->message;
  EXPECT_EQ(report->size, "large");
  for (auto const* m : {&report->candidate_energy, &report->reference_energy}) {
    ASSERT_TRUE(m->has_value()) << "the reference is measured by default";
    EnergyMeasurement const& e = **m;
    ASSERT_EQ(e.trials.size(), 2U);
    EXPECT_GT(e.joules_per_call.median, 0.0);
    EXPECT_GT(e.avg_watts, 50.0);
    EXPECT_LT(e.avg_watts, 1000.0);
    EXPECT_GT(e.sm_clock_mhz.median, 0.0);
    for (auto const& t : e.trials) {
      EXPECT_GE(t.seconds, 2.0) << "a window lasts at least window_s";
      EXPECT_GT(t.joules, 0.0);
      EXPECT_GT(t.calls, 0);
    }
  }
  EXPECT_TRUE(report->candidate_energy->graph) << report->candidate_energy->note;
  ASSERT_TRUE(report->ratio.has_value());
  EXPECT_GT(*report->ratio, 0.0);
}

}  // namespace energy_test
}  // namespace kopt::testing
