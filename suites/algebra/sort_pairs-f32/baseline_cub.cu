// Vendor baseline for sort_pairs-f32: cub::DeviceRadixSort::SortPairs (../sort_pairs-cub.cuh).
#include "../sort_pairs-cub.cuh"

extern "C" void sort_pairs(float* keys_out, int* values_out, const float* keys_in, const int* values_in,
                           int n) {
  sort_pairs_baseline_cub(keys_out, values_out, keys_in, values_in, n);
}
