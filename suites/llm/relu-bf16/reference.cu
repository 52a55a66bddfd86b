// Reference for suites/llm/relu-bf16: the naive kernel of ../relu-common.cuh for __nv_bfloat16,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../relu-common.cuh"

extern "C" void relu(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  llm_relu::launch(out, in, n);
}
