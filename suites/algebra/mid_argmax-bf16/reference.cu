// Reference for mid_argmax-bf16 (kernel in ../mid_arg-common.cuh).
#include <cstdint>

#include "../mid_arg-common.cuh"

extern "C" void mid_argmax(int64_t* out, const __nv_bfloat16* in, int batch, int rows, int cols) {
  mid_argmax_reference(out, in, batch, rows, cols);
}
