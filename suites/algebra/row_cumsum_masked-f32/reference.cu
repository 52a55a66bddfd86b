// Reference for row_cumsum_masked-f32 (kernel in ../row_cumsum-common.cuh).
#include "../row_scan_variants-common.cuh"

extern "C" void row_cumsum_masked(float* out, const float* in, const uint8_t* mask, int rows, int cols) {
  row_scan_reference<RowScan::masked>(out, in, mask, rows, cols);
}
