// Vendor baseline for row_cumsum_exclusive-bf16: cub::DeviceScan::InclusiveScanByKey over x shifted by one
// within each row, the row as the key (../row_scan_variants-cub.cuh).
#include "../row_scan_variants-cub.cuh"

extern "C" void row_cumsum_exclusive(__nv_bfloat16* out, const __nv_bfloat16* in, int rows, int cols) {
  row_cumsum_exclusive_baseline_cub(out, in, rows, cols);
}
