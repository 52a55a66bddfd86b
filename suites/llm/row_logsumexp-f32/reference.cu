// Reference for suites/llm/row_logsumexp-f32: the naive kernel of ../row_logsumexp-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../row_logsumexp-common.cuh"

extern "C" void row_logsumexp(float* out, const float* in, int rows, int cols) {
  llm_row_logsumexp::launch(out, in, rows, cols);
}
