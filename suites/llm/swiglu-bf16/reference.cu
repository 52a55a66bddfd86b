// Reference for suites/llm/swiglu-bf16: the naive kernel of ../swiglu-common.cuh for __nv_bfloat16,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../swiglu-common.cuh"

extern "C" void swiglu(__nv_bfloat16* out, const __nv_bfloat16* gate, const __nv_bfloat16* up, int n) {
  llm_swiglu::launch(out, gate, up, n);
}
