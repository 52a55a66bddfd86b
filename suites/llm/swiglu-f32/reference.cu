// Reference for suites/llm/swiglu-f32: the naive kernel of ../swiglu-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../swiglu-common.cuh"

extern "C" void swiglu(float* out, const float* gate, const float* up, int n) {
  llm_swiglu::launch(out, gate, up, n);
}
