// Reference for suites/llm/linear_gelu_softmax-f32: the two naive kernels of
// ../linear_gelu_softmax-common.cuh for float (linear + GELU into the intermediate t0, then row_softmax's
// reference), launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../linear_gelu_softmax-common.cuh"

extern "C" void linear_gelu_softmax(float* out, const float* x, const float* weight, const float* bias, int M,
                                    int N, int K) {
  llm_linear_gelu_softmax::launch(out, x, weight, bias, M, N, K);
}
