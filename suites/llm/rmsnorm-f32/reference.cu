// Reference for suites/llm/rmsnorm-f32: the naive kernel of ../rmsnorm-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../rmsnorm-common.cuh"

extern "C" void rmsnorm(float* out, const float* in, const float* weight, int N, int C) {
  llm_rmsnorm::launch(out, in, weight, N, C);
}
