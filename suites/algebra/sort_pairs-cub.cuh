// Vendor baseline of sort_pairs-f32 and sort_pairs-bf16: cub::DeviceRadixSort::SortPairs (all key bits,
// BF16 keys natively; stable, -0 equal to +0) with its temporary storage in the grow-only scratch of
// cub-scratch.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cub/device/device_radix_sort.cuh>

#include "cub-scratch.cuh"
#include "sort_pairs-common.cuh"

template <typename T>
void sort_pairs_baseline_cub(T* keys_out, int* values_out, const T* keys_in, const int* values_in, int n) {
  if (n <= 0) return;
  int const end_bit = static_cast<int>(8 * sizeof(T));
  std::size_t bytes = 0;
  if (cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, values_in, values_out, n, 0, end_bit,
                                      cudaStreamPerThread) != cudaSuccess)
    return;
  void* const storage = kopt_suite::cub_scratch(bytes);
  if (storage == nullptr) return;
  cudaError_t const status = cub::DeviceRadixSort::SortPairs(storage, bytes, keys_in, keys_out, values_in,
                                                             values_out, n, 0, end_bit, cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
}
