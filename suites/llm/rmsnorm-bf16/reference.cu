// Reference for suites/llm/rmsnorm-bf16: the naive kernel of ../rmsnorm-common.cuh for __nv_bfloat16,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../rmsnorm-common.cuh"

extern "C" void rmsnorm(__nv_bfloat16* out, const __nv_bfloat16* in, const __nv_bfloat16* weight, int N,
                        int C) {
  llm_rmsnorm::launch(out, in, weight, N, C);
}
