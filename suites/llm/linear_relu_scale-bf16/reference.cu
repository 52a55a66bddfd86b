// Reference for suites/llm/linear_relu_scale-bf16: the naive kernel of ../linear_relu-common.cuh for
// __nv_bfloat16 with the per-feature scale, launched on the default stream (kopt builds launchers with
// per-thread default streams).
#include <cuda_bf16.h>

#include "../linear_relu-common.cuh"

extern "C" void linear_relu_scale(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* weight,
                                  const __nv_bfloat16* bias, int M, int N, int K,
                                  const __nv_bfloat16* scale) {
  llm_linear_relu::launch(out, x, weight, bias, M, N, K, scale);
}
