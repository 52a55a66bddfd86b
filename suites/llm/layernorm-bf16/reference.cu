// Reference for suites/llm/layernorm-bf16: the naive kernel of ../layernorm-common.cuh for __nv_bfloat16,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../layernorm-common.cuh"

extern "C" void layernorm(__nv_bfloat16* out, const __nv_bfloat16* in, const __nv_bfloat16* gamma,
                          const __nv_bfloat16* beta, int N, int C) {
  llm_layernorm::launch(out, in, gamma, beta, N, C);
}
