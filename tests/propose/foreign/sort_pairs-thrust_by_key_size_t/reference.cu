// Copies keys and values, then thrust::stable_sort_by_key on the copies.
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <cstddef>

extern "C" void sort_by_key_f32(const float* keys, const int* vals, float* keys_sorted, int* vals_sorted,
                                size_t n) {
  if (n == 0) return;
  thrust::copy(thrust::device, keys, keys + n, keys_sorted);
  thrust::copy(thrust::device, vals, vals + n, vals_sorted);
  thrust::stable_sort_by_key(thrust::device, keys_sorted, keys_sorted + n, vals_sorted);
}
