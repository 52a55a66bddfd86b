// Reference for col_argmax-bf16 (kernel in ../col_argmax-common.cuh).
#include "../col_argmax-common.cuh"

extern "C" void col_argmax(int* out, const __nv_bfloat16* in, int rows, int cols) {
  col_argmax_reference(out, in, rows, cols);
}
