// Vendor baseline for row_cumsum_exclusive-f32: cub::DeviceScan::InclusiveScanByKey over x shifted by one
// within each row, the row as the key (../row_scan_variants-cub.cuh).
#include "../row_scan_variants-cub.cuh"

extern "C" void row_cumsum_exclusive(float* out, const float* in, int rows, int cols) {
  row_cumsum_exclusive_baseline_cub(out, in, rows, cols);
}
