// Reference for suites/llm/row_logsumexp-bf16: the naive kernel of ../row_logsumexp-common.cuh for
// __nv_bfloat16, launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../row_logsumexp-common.cuh"

extern "C" void row_logsumexp(__nv_bfloat16* out, const __nv_bfloat16* in, int rows, int cols) {
  llm_row_logsumexp::launch(out, in, rows, cols);
}
