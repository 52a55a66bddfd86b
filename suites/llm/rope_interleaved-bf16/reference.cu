// Reference for suites/llm/rope_interleaved-bf16: the naive kernel of ../rope_interleaved-common.cuh for
// __nv_bfloat16 (products in double, one rounding), launched on the default stream.
#include <cuda_bf16.h>

#include "../rope_interleaved-common.cuh"

extern "C" void rope_interleaved(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* cos_table,
                                 const __nv_bfloat16* sin_table, int S, int H, int D) {
  llm_rope_interleaved::launch(out, x, cos_table, sin_table, S, H, D);
}
