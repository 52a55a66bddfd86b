// Reference for suites/llm/rmsnorm_stats-bf16: the naive kernel of ../rmsnorm-common.cuh for __nv_bfloat16,
// writing the per-row rstd too, launched on the default stream.
#include <cuda_bf16.h>

#include "../rmsnorm-common.cuh"

extern "C" void rmsnorm_stats(__nv_bfloat16* out, const __nv_bfloat16* in, const __nv_bfloat16* weight, int N,
                              int C, float eps, float* rstd) {
  llm_rmsnorm::launch(out, in, weight, N, C, static_cast<double>(eps), rstd);
}
