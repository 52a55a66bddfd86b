// Reference for transpose-f32 (kernels in ../transpose-common.cuh).
#include "../transpose-common.cuh"

extern "C" void transpose(float* out, const float* in, int rows, int cols) {
  transpose_reference(out, in, rows, cols);
}
