// Reference for mid_argmin-f32 (kernel in ../mid_arg-common.cuh).
#include <cstdint>

#include "../mid_arg-common.cuh"

extern "C" void mid_argmin(int64_t* out, const float* in, int batch, int rows, int cols) {
  mid_argmin_reference(out, in, batch, rows, cols);
}
