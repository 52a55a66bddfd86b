// Reference for row_cumprod-bf16 (kernel in ../row_cumsum-common.cuh).
#include "../row_scan_variants-common.cuh"

extern "C" void row_cumprod(__nv_bfloat16* out, const __nv_bfloat16* in, int rows, int cols) {
  row_scan_reference<RowScan::product>(out, in, nullptr, rows, cols);
}
