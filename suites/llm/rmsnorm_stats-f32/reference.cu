// Reference for suites/llm/rmsnorm_stats-f32: the naive kernel of ../rmsnorm-common.cuh for float,
// writing the per-row rstd too, launched on the default stream.
#include <cuda_bf16.h>

#include "../rmsnorm-common.cuh"

extern "C" void rmsnorm_stats(float* out, const float* in, const float* weight, int N, int C, float eps,
                              float* rstd) {
  llm_rmsnorm::launch(out, in, weight, N, C, static_cast<double>(eps), rstd);
}
