// Reference for col_argmin-bf16 (kernel in ../col_argmax-common.cuh).
#include "../col_argmax-common.cuh"

extern "C" void col_argmin(int* out, const __nv_bfloat16* in, int rows, int cols) {
  col_argmin_reference(out, in, rows, cols);
}
