// Vendor baseline for kl_div_batchmean-bf16: cub::DeviceReduce over a transform iterator
// (../loss-cub.cuh).
#include "../loss-cub.cuh"

extern "C" void kl_div_batchmean(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* y, int rows,
                                 int cols) {
  loss_rows_baseline_cub<KlProbTerm, LossY::kSameIndex, LossDivisor::kRows>(out, x, y, rows, cols);
}
