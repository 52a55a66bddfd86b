// Reference for row_cumprod-f32 (kernel in ../row_cumsum-common.cuh).
#include "../row_scan_variants-common.cuh"

extern "C" void row_cumprod(float* out, const float* in, int rows, int cols) {
  row_scan_reference<RowScan::product>(out, in, nullptr, rows, cols);
}
