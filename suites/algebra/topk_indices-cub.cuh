// Vendor baseline of topk_indices-f32 and topk_indices-bf16: CUB has no batched top-k, so every row is
// sorted in full, descending, as (value, column) pairs with
// cub::DeviceSegmentedRadixSort::SortPairsDescending (one segment per row, offsets r * cols
// from a transform iterator; stable, so equal values keep ascending columns, and CUB's radix sort treats
// -0 and +0 as equal), and the first k values and columns of each row are copied out with two
// cudaMemcpy2DAsync. That sorts more than a top-k needs, but it is what the vendor libraries offer. The
// column numbers (c for element r * cols + c) are the sort's input values: filled once per (rows, cols) in
// their own grow-only buffer; the sorted keys, the sorted columns and CUB's temporary storage share the
// suite's grow-only scratch (cub-scratch.cuh). Runs on the per-thread default stream kopt times on.
#pragma once
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdio>
#include <cub/device/device_segmented_radix_sort.cuh>

#include "cub-scratch.cuh"
#include "topk_indices-common.cuh"

// Row r's first element (the segment offsets).
struct TopkIndicesRowStart {
  int cols;
  __host__ __device__ int operator()(int row) const { return row * cols; }
};

__global__ void topk_indices_columns_kernel(int* columns, long long items, int cols) {
  long long const stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < items; i += stride)
    columns[i] = static_cast<int>(i % cols);
}

// columns[i] = i % cols for i < rows * cols, filled on the first call of each (rows, cols) and kept.
inline int const* topk_indices_columns(int rows, int cols) {
  static int* buffer = nullptr;
  static std::size_t capacity = 0;
  static long long filled_items = -1;
  static int filled_cols = -1;
  long long const items = static_cast<long long>(rows) * cols;
  if (static_cast<std::size_t>(items) > capacity) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    filled_items = -1;
    if (cudaMalloc(&buffer, static_cast<std::size_t>(items) * sizeof(int)) != cudaSuccess) {
      std::fprintf(stderr, "baseline_cub.cu: cudaMalloc of the column numbers failed\n");
      buffer = nullptr;
      return nullptr;
    }
    capacity = static_cast<std::size_t>(items);
  }
  if (items != filled_items || cols != filled_cols) {
    topk_indices_columns_kernel<<<1024, 256, 0, cudaStreamPerThread>>>(buffer, items, cols);
    filled_items = items;
    filled_cols = cols;
  }
  return buffer;
}

template <typename T>
void topk_indices_baseline_cub(T* values, int* indices, const T* in, int rows, int cols, int k) {
  if (rows <= 0 || cols <= 0 || k <= 0 || k > cols) return;
  int const items = rows * cols;
  int const* const columns = topk_indices_columns(rows, cols);
  if (columns == nullptr) return;
  auto const begin_offsets =
      thrust::make_transform_iterator(thrust::make_counting_iterator(0), TopkIndicesRowStart{cols});
  auto const end_offsets = begin_offsets + 1;
  std::size_t temp_bytes = 0;
  if (cub::DeviceSegmentedRadixSort::SortPairsDescending(
          nullptr, temp_bytes, in, static_cast<T*>(nullptr), columns, static_cast<int*>(nullptr), items, rows,
          begin_offsets, end_offsets, 0, static_cast<int>(8 * sizeof(T)), cudaStreamPerThread) != cudaSuccess)
    return;
  auto const round_up = [](std::size_t bytes) { return (bytes + 255) / 256 * 256; };
  std::size_t const keys_bytes = round_up(static_cast<std::size_t>(items) * sizeof(T));
  std::size_t const columns_bytes = round_up(static_cast<std::size_t>(items) * sizeof(int));
  auto* const storage = static_cast<char*>(kopt_suite::cub_scratch(keys_bytes + columns_bytes + temp_bytes));
  if (storage == nullptr) return;
  auto* const sorted = reinterpret_cast<T*>(storage);
  auto* const sorted_columns = reinterpret_cast<int*>(storage + keys_bytes);
  void* const temp = storage + keys_bytes + columns_bytes;
  cudaError_t status = cub::DeviceSegmentedRadixSort::SortPairsDescending(
      temp, temp_bytes, in, sorted, columns, sorted_columns, items, rows, begin_offsets, end_offsets, 0,
      static_cast<int>(8 * sizeof(T)), cudaStreamPerThread);
  std::size_t const width = static_cast<std::size_t>(k);
  std::size_t const pitch = static_cast<std::size_t>(cols);
  if (status == cudaSuccess)
    status = cudaMemcpy2DAsync(values, width * sizeof(T), sorted, pitch * sizeof(T), width * sizeof(T),
                               static_cast<std::size_t>(rows), cudaMemcpyDeviceToDevice, cudaStreamPerThread);
  if (status == cudaSuccess)
    status = cudaMemcpy2DAsync(indices, width * sizeof(int), sorted_columns, pitch * sizeof(int),
                               width * sizeof(int), static_cast<std::size_t>(rows), cudaMemcpyDeviceToDevice,
                               cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB or copy failed (%s)\n", cudaGetErrorString(status));
}
