// Vendor baseline for row_cumsum-f32: cub::DeviceScan::InclusiveScanByKey with the row as the key
// (../row_cumsum-cub.cuh).
#include "../row_cumsum-cub.cuh"

extern "C" void row_cumsum(float* out, const float* in, int rows, int cols) {
  row_cumsum_baseline_cub(out, in, rows, cols);
}
