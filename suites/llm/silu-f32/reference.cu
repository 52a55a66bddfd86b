// Reference for suites/llm/silu-f32: the naive kernel of ../silu-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../silu-common.cuh"

extern "C" void silu(float* out, const float* in, int n) {
  llm_silu::launch(out, in, n);
}
