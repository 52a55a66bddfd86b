// `kopt calibrate` on a real GPU: every ceiling measured and plausible, cached, and used by the next
// Evaluator on that device.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"
#include "kopt/eval.hpp"

namespace kopt::testing {
namespace calibrate_test {

TEST(Calibrate, MeasuresEveryCeilingCachesItAndTheNextEvaluatorUsesIt) {
  EvalOptions const options = gpu_test_options();
  auto evaluator = Evaluator::create(options);
  if (gpu_missing(evaluator)) GTEST_SKIP() << "no CUDA GPU: " << evaluator.error().message;
  ASSERT_TRUE(evaluator.ok()) << evaluator.error().message;
  auto c = (*evaluator)->calibrate();
  ASSERT_TRUE(c) << c.error().message;
  for (auto const& note : c->notes) ADD_FAILURE() << "note: " << note;
  // Loose physical bounds for any datacenter GPU of this decade; the H200 measures ~4 TB/s, ~60 TFLOP/s
  // FP32 and several hundred TFLOP/s on 16-bit tensor cores.
  EXPECT_GT(c->dram_bytes_per_s, 0.5e12);
  EXPECT_LT(c->dram_bytes_per_s, 20e12);
  EXPECT_GT(c->fp32_flops_per_s, 5e12);
  EXPECT_LT(c->fp32_flops_per_s, 500e12);
  EXPECT_GT(c->bf16_tensor_flops_per_s, 2.0 * c->fp32_flops_per_s) << "tensor cores beat FP32 FMA";
  EXPECT_GT(c->fp16_tensor_flops_per_s, 2.0 * c->fp32_flops_per_s);
  // The computed FP32 peak (SM count x clock) bounds what an FFMA stream can reach.
  DeviceInfo const& device = (*evaluator)->device();
  EXPECT_DOUBLE_EQ(device.ceilings.fp32_flops_per_s, c->fp32_flops_per_s) << "applied at once";

  auto again = Evaluator::create(options);
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_DOUBLE_EQ((*again)->device().ceilings.fp32_flops_per_s, c->fp32_flops_per_s)
      << "read from the cache";
  EXPECT_DOUBLE_EQ((*again)->device().ceilings.tensor_flops_per_s,
                   std::max(c->bf16_tensor_flops_per_s, c->fp16_tensor_flops_per_s));
}

}  // namespace calibrate_test
}  // namespace kopt::testing
