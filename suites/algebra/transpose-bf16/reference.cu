// Reference for transpose-bf16 (kernels in ../transpose-common.cuh): BF16 storage.
#include "../transpose-common.cuh"

extern "C" void transpose(__nv_bfloat16* out, const __nv_bfloat16* in, int rows, int cols) {
  transpose_reference(out, in, rows, cols);
}
