// Vendor baseline for row_cumsum_reverse-f32: cub::DeviceScan::InclusiveScanByKey through reverse iterators,
// the row as the key (../row_scan_variants-cub.cuh).
#include "../row_scan_variants-cub.cuh"

extern "C" void row_cumsum_reverse(float* out, const float* in, int rows, int cols) {
  row_cumsum_reverse_baseline_cub(out, in, rows, cols);
}
