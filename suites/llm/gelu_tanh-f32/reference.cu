// Reference for suites/llm/gelu_tanh-f32: the naive kernel of ../gelu_tanh-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../gelu_tanh-common.cuh"

extern "C" void gelu_tanh(float* out, const float* in, int n) {
  llm_gelu_tanh::launch(out, in, n);
}
