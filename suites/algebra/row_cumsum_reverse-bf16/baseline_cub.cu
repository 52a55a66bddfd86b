// Vendor baseline for row_cumsum_reverse-bf16: cub::DeviceScan::InclusiveScanByKey through reverse iterators,
// the row as the key (../row_scan_variants-cub.cuh).
#include "../row_scan_variants-cub.cuh"

extern "C" void row_cumsum_reverse(__nv_bfloat16* out, const __nv_bfloat16* in, int rows, int cols) {
  row_cumsum_reverse_baseline_cub(out, in, rows, cols);
}
