// Reference for row_argmin-bf16 (kernel in ../row_argmin-common.cuh).
#include "../row_argmin-common.cuh"

extern "C" void row_argmin(int* out, const __nv_bfloat16* in, int rows, int cols) {
  row_argmin_reference(out, in, rows, cols);
}
