// Reference for suites/llm/rope_interleaved-f32: the naive kernel of ../rope_interleaved-common.cuh for
// float, launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../rope_interleaved-common.cuh"

extern "C" void rope_interleaved(float* out, const float* x, const float* cos_table, const float* sin_table,
                                 int S, int H, int D) {
  llm_rope_interleaved::launch(out, x, cos_table, sin_table, S, H, D);
}
