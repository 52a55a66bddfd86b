// Reference for suites/llm/layernorm-f32: the naive kernel of ../layernorm-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../layernorm-common.cuh"

extern "C" void layernorm(float* out, const float* in, const float* gamma, const float* beta, int N, int C) {
  llm_layernorm::launch(out, in, gamma, beta, N, C);
}
