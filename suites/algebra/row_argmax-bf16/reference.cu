// Reference for row_argmax-bf16 (kernel in ../row_argmax-common.cuh).
#include "../row_argmax-common.cuh"

extern "C" void row_argmax(int* out, const __nv_bfloat16* in, int rows, int cols) {
  row_argmax_reference(out, in, rows, cols);
}
