// Vendor baseline for topk_indices-bf16: cub::DeviceSegmentedRadixSort::SortPairsDescending of (value,
// column) per row, then the first k of each row (../topk_indices-cub.cuh).
#include "../topk_indices-cub.cuh"

extern "C" void topk_indices(__nv_bfloat16* values, int* indices, const __nv_bfloat16* in, int rows, int cols,
                             int k) {
  topk_indices_baseline_cub(values, indices, in, rows, cols, k);
}
