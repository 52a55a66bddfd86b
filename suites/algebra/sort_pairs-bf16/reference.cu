// Reference for sort_pairs-bf16 (bitonic network on (key, index) pairs in ../sort_pairs-common.cuh).
#include "../sort_pairs-common.cuh"

extern "C" void sort_pairs(__nv_bfloat16* keys_out, int* values_out, const __nv_bfloat16* keys_in,
                           const int* values_in, int n) {
  sort_pairs_reference(keys_out, values_out, keys_in, values_in, n);
}
