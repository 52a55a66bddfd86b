// Reference for row_argmin-f32 (kernel in ../row_argmin-common.cuh).
#include "../row_argmin-common.cuh"

extern "C" void row_argmin(int* out, const float* in, int rows, int cols) {
  row_argmin_reference(out, in, rows, cols);
}
