// Vendor baseline for topk_indices-f32: cub::DeviceSegmentedRadixSort::SortPairsDescending of (value, column)
// per row, then the first k of each row (../topk_indices-cub.cuh).
#include "../topk_indices-cub.cuh"

extern "C" void topk_indices(float* values, int* indices, const float* in, int rows, int cols, int k) {
  topk_indices_baseline_cub(values, indices, in, rows, cols, k);
}
