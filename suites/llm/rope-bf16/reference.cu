// Reference for suites/llm/rope-bf16: the naive kernel of ../rope-common.cuh for __nv_bfloat16,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../rope-common.cuh"

extern "C" void rope(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* cos_table,
                     const __nv_bfloat16* sin_table, int S, int H, int D) {
  llm_rope::launch(out, x, cos_table, sin_table, S, H, D);
}
