// Reference for suites/llm/rope-f32: the naive kernel of ../rope-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../rope-common.cuh"

extern "C" void rope(float* out, const float* x, const float* cos_table, const float* sin_table, int S, int H,
                     int D) {
  llm_rope::launch(out, x, cos_table, sin_table, S, H, D);
}
