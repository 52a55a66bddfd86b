// Reference for suites/llm/linear_relu_scale-f32: the naive kernel of ../linear_relu-common.cuh for float
// with the per-feature scale, launched on the default stream (kopt builds launchers with per-thread default
// streams).
#include <cuda_bf16.h>

#include "../linear_relu-common.cuh"

extern "C" void linear_relu_scale(float* out, const float* x, const float* weight, const float* bias, int M,
                                  int N, int K, const float* scale) {
  llm_linear_relu::launch(out, x, weight, bias, M, N, K, scale);
}
