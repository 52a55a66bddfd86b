// Reference for col_argmax-f32 (kernel in ../col_argmax-common.cuh).
#include "../col_argmax-common.cuh"

extern "C" void col_argmax(int* out, const float* in, int rows, int cols) {
  col_argmax_reference(out, in, rows, cols);
}
