// Reference for row_cumprod-f32 (kernel in ../row_scan_variants-common.cuh).
#include "../row_scan_variants-common.cuh"

extern "C" void row_cumprod(float* out, const float* in, int rows, int cols) {
  row_cumprod_reference(out, in, rows, cols);
}
