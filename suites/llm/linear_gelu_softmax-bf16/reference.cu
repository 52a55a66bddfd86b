// Reference for suites/llm/linear_gelu_softmax-bf16: the two naive kernels of
// ../linear_gelu_softmax-common.cuh for __nv_bfloat16 (linear + GELU into the intermediate t0, rounded to
// BF16, then row_softmax's reference), launched on the default stream (kopt builds launchers with per-thread
// default streams).
#include <cuda_bf16.h>

#include "../linear_gelu_softmax-common.cuh"

extern "C" void linear_gelu_softmax(__nv_bfloat16* out, const __nv_bfloat16* x, const __nv_bfloat16* weight,
                                    const __nv_bfloat16* bias, int M, int N, int K) {
  llm_linear_gelu_softmax::launch(out, x, weight, bias, M, N, K);
}
