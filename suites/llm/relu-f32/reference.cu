// Reference for suites/llm/relu-f32: the naive kernel of ../relu-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../relu-common.cuh"

extern "C" void relu(float* out, const float* in, int n) {
  llm_relu::launch(out, in, n);
}
