// Reference for row_cumsum_reverse-f32 (kernel in ../row_cumsum-common.cuh).
#include "../row_scan_variants-common.cuh"

extern "C" void row_cumsum_reverse(float* out, const float* in, int rows, int cols) {
  row_scan_reference<RowScan::reverse>(out, in, nullptr, rows, cols);
}
