// Shared by topk_indices-f32 and topk_indices-bf16 (torch.topk(x, k, dim=-1) with int32 indices, sorted):
// for each row r of a row-major rows x cols matrix, values[r][0..k) are the k largest values of in[r][*]
// and indices[r][0..k) their columns, ordered by descending value, then ascending column (BF16 rows tie
// often: the order of equal values is part of the result). NaN counts as larger than every value (as
// torch); -0 equals +0 (IEEE comparison). Requires 1 <= k <= cols.
//
// Reference: one thread per row, selection by k scans of the row: scan r takes the first element, in that
// order, that comes after the one scan r - 1 took. Comparisons only, so the result is exact and
// deterministic. Naive on purpose (k passes over the row, uncoalesced: neighbouring threads read different
// rows) but obviously correct.
//
// Vendor baseline: CUB has no batched top-k, so every row is sorted in full, descending, as (value, column)
// pairs with cub::DeviceSegmentedRadixSort::SortPairsDescending (one segment per row, offsets r * cols
// from a transform iterator; stable, so equal values keep ascending columns, and CUB's radix sort treats
// -0 and +0 as equal), and the first k values and columns of each row are copied out with two
// cudaMemcpy2DAsync. That sorts more than a top-k needs, but it is what the vendor libraries offer. The
// column numbers (c for element r * cols + c) are the sort's input values: filled once per (rows, cols) in
// their own grow-only buffer; the sorted keys, the sorted columns and CUB's temporary storage share the
// suite's grow-only scratch (cub-scratch.cuh). Runs on the per-thread default stream kopt times on.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdio>
#include <cub/cub.cuh>

#include "cub-scratch.cuh"

// Whether value a at column ca comes before value b at column cb: the larger value first (NaN above every
// value), then the smaller column.
__device__ inline bool topk_indices_before(float a, int ca, float b, int cb) {
  bool const a_nan = a != a;
  bool const b_nan = b != b;
  if (a_nan != b_nan) return a_nan;
  if (!a_nan && a != b) return a > b;
  return ca < cb;
}

template <typename T>
__global__ void topk_indices_reference_kernel(T* values, int* indices, const T* in, int rows, int cols,
                                              int k) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const T* x = in + static_cast<long long>(row) * cols;
  T* y = values + static_cast<long long>(row) * k;
  int* yi = indices + static_cast<long long>(row) * k;
  float previous = 0.0f;
  int previous_column = -1;  // none yet: every element comes after it
  for (int r = 0; r < k; ++r) {
    int best_column = -1;
    float best = 0.0f;
    for (int c = 0; c < cols; ++c) {
      float const v = static_cast<float>(x[c]);
      bool const after_previous = previous_column < 0 || topk_indices_before(previous, previous_column, v, c);
      if (after_previous && (best_column < 0 || topk_indices_before(v, c, best, best_column))) {
        best = v;
        best_column = c;
      }
    }
    y[r] = x[best_column];
    yi[r] = best_column;
    previous = best;
    previous_column = best_column;
  }
}

template <typename T>
void topk_indices_reference(T* values, int* indices, const T* in, int rows, int cols, int k) {
  if (rows <= 0 || cols <= 0 || k <= 0 || k > cols) return;
  int const block = 32;  // one warp per block: spreads the few rows over many SMs
  topk_indices_reference_kernel<T><<<(rows + block - 1) / block, block>>>(values, indices, in, rows, cols, k);
}

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
