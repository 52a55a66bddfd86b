// Reference for row_cumsum_masked-bf16 (kernel in ../row_cumsum-common.cuh).
#include "../row_scan_variants-common.cuh"

extern "C" void row_cumsum_masked(__nv_bfloat16* out, const __nv_bfloat16* in, const uint8_t* mask, int rows,
                                  int cols) {
  row_scan_reference<RowScan::masked>(out, in, mask, rows, cols);
}
