// Reference for suites/llm/row_log_softmax-f32: the naive kernel of ../row_log_softmax-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../row_log_softmax-common.cuh"

extern "C" void row_log_softmax(float* out, const float* in, int N, int C) {
  llm_row_log_softmax::launch(out, in, N, C);
}
