// Vendor baseline for sort_pairs-bf16: cub::DeviceRadixSort::SortPairs (../sort_pairs-cub.cuh).
#include "../sort_pairs-cub.cuh"

extern "C" void sort_pairs(__nv_bfloat16* keys_out, int* values_out, const __nv_bfloat16* keys_in,
                           const int* values_in, int n) {
  sort_pairs_baseline_cub(keys_out, values_out, keys_in, values_in, n);
}
