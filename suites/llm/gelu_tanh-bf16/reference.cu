// Reference for suites/llm/gelu_tanh-bf16: the naive kernel of ../gelu_tanh-common.cuh for __nv_bfloat16,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../gelu_tanh-common.cuh"

extern "C" void gelu_tanh(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  llm_gelu_tanh::launch(out, in, n);
}
