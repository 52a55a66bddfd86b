// Vendor baseline of row_argmax-f32 and row_argmax-bf16 (row_arg_baseline_cub also serves row_argmin's, in
// row_argmin-cub.cuh): cub::DeviceSegmentedReduce::ArgMax (CUB keeps the smaller index on ties) over the
// rows as segments (offsets from a counting iterator, nothing allocated per call) into (index, value) pairs
// in the grow-only scratch, then a small kernel that keeps the indices (CUB's ArgMax cannot write through a
// transform output iterator).
#pragma once
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdio>
#include <cub/device/device_segmented_reduce.cuh>

#include "cub-scratch.cuh"
#include "row_argmax-common.cuh"

// Row r's first element (the segment offsets).
struct RowStart {
  int cols;
  __host__ __device__ int operator()(int r) const { return r * cols; }
};

template <typename T>
struct ToFloatValue {
  __host__ __device__ float operator()(T v) const { return static_cast<float>(v); }
};

using IndexValue = cub::KeyValuePair<int, float>;

__global__ void row_argmax_keys_kernel(int* out, IndexValue const* pairs, int rows) {
  int const r = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (r < rows) out[r] = pairs[r].key;
}

// CUB's segmented ArgMax (or ArgMin) over the rows into (index, value) pairs, then the indices: the
// baseline of row_argmax and row_argmin.
template <bool kArgMin, typename T>
void row_arg_baseline_cub(int* out, const T* in, int rows, int cols) {
  if (rows <= 0) return;
  auto const values = thrust::make_transform_iterator(in, ToFloatValue<T>{});
  auto const starts = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), RowStart{cols});
  auto const ends = thrust::make_transform_iterator(thrust::counting_iterator<int>(1), RowStart{cols});
  auto const reduce = [&](void* storage, std::size_t& bytes, IndexValue* pairs) {
    if constexpr (kArgMin) {
      return cub::DeviceSegmentedReduce::ArgMin(storage, bytes, values, pairs, rows, starts, ends,
                                                cudaStreamPerThread);
    } else {
      return cub::DeviceSegmentedReduce::ArgMax(storage, bytes, values, pairs, rows, starts, ends,
                                                cudaStreamPerThread);
    }
  };
  std::size_t bytes = 0;
  if (reduce(nullptr, bytes, nullptr) != cudaSuccess) return;
  std::size_t const pairs_at = (bytes + 255) / 256 * 256;  // CUB's storage, then the (index, value) pairs
  auto* const storage = static_cast<char*>(kopt_suite::cub_scratch(pairs_at + sizeof(IndexValue) * rows));
  if (storage == nullptr) return;
  auto* const pairs = reinterpret_cast<IndexValue*>(storage + pairs_at);
  cudaError_t const status = reduce(storage, bytes, pairs);
  if (status != cudaSuccess) {
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
    return;
  }
  row_argmax_keys_kernel<<<(rows + 255) / 256, 256, 0, cudaStreamPerThread>>>(out, pairs, rows);
}

template <typename T>
void row_argmax_baseline_cub(int* out, const T* in, int rows, int cols) {
  row_arg_baseline_cub<false>(out, in, rows, cols);
}
