// Vendor baseline for row_cumsum_masked-bf16: cub::DeviceScan::InclusiveScanByKey over x times its mask,
// the row as the key (../row_scan_variants-cub.cuh).
#include "../row_scan_variants-cub.cuh"

extern "C" void row_cumsum_masked(__nv_bfloat16* out, const __nv_bfloat16* in, const uint8_t* mask, int rows,
                                  int cols) {
  row_cumsum_masked_baseline_cub(out, in, mask, rows, cols);
}
