// Reference for kl_div_batchmean-f32 (kernel in ../loss-common.cuh).
#include "../loss-common.cuh"

extern "C" void kl_div_batchmean(float* out, const float* x, const float* y, int rows, int cols) {
  loss_rows_reference<KlProbTerm, LossY::kSameIndex, LossDivisor::kRows>(out, x, y, rows, cols);
}
