// Reference for suites/algebra/mid_softmax-bf16: the naive kernel of ../mid_softmax-common.cuh for
// __nv_bfloat16, launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../mid_softmax-common.cuh"

extern "C" void mid_softmax(__nv_bfloat16* out, const __nv_bfloat16* in, int batch, int rows, int cols) {
  algebra_mid_softmax::launch(out, in, batch, rows, cols);
}
