// Reference for suites/algebra/mid_softmax-f32: the naive kernel of ../mid_softmax-common.cuh for float,
// launched on the default stream (kopt builds launchers with per-thread default streams).
#include <cuda_bf16.h>

#include "../mid_softmax-common.cuh"

extern "C" void mid_softmax(float* out, const float* in, int batch, int rows, int cols) {
  algebra_mid_softmax::launch(out, in, batch, rows, cols);
}
