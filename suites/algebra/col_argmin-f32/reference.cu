// Reference for col_argmin-f32 (kernel in ../col_argmax-common.cuh).
#include "../col_argmax-common.cuh"

extern "C" void col_argmin(int* out, const float* in, int rows, int cols) {
  col_argmin_reference(out, in, rows, cols);
}
