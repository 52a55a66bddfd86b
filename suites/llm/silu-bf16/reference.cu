// Reference for suites/llm/silu-bf16: the naive kernel of ../silu-common.cuh for __nv_bfloat16,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../silu-common.cuh"

extern "C" void silu(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  llm_silu::launch(out, in, n);
}
