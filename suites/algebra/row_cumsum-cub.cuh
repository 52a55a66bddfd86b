// Vendor baseline of row_cumsum-f32 and row_cumsum-bf16 (its CUB pieces also serve
// row_scan_variants-cub.cuh): cub::DeviceScan::InclusiveScanByKey over the whole matrix, the key of element i
// being its row i / cols (a transform of a counting iterator, nothing stored), so the scan restarts at every
// row; FP32 running sums (BF16 is widened to float by a transform iterator, each output rounded once). CUB's
// temporary storage is the grow-only scratch of cub-scratch.cuh. Offsets are 32-bit when rows * cols fits
// an int, else 64-bit.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <climits>
#include <cstddef>
#include <cstdio>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include "cub-scratch.cuh"
#include "row_cumsum-common.cuh"

// The row of flat element i (the scan's key).
template <typename Index>
struct RowOfElement {
  Index cols;
  __host__ __device__ Index operator()(Index i) const { return i / cols; }
};

// The scan's keys: the row of each flat element, a transform of a counting iterator (nothing stored).
template <typename Index>
auto row_keys(Index cols) {
  return thrust::make_transform_iterator(thrust::counting_iterator<Index>(0), RowOfElement<Index>{cols});
}

struct WidenBf16 {
  __host__ __device__ float operator()(__nv_bfloat16 v) const { return __bfloat162float(v); }
};

// The values CUB scans: FP32 as they are, BF16 widened to float (so the running sum is FP32).
inline const float* row_cumsum_values(const float* in) {
  return in;
}
inline auto row_cumsum_values(const __nv_bfloat16* in) {
  return thrust::make_transform_iterator(in, WidenBf16{});
}

// One cub::DeviceScan::InclusiveScanByKey of n elements with op, restarting wherever the key changes; its
// temporary storage is the grow-only scratch. Shared with row_scan_variants-cub.cuh.
template <typename Keys, typename Values, typename Out, typename Op, typename Index>
void inclusive_scan_by_key_cub(Keys keys, Values values, Out out, Op op, Index n) {
  std::size_t bytes = 0;
  if (cub::DeviceScan::InclusiveScanByKey(nullptr, bytes, keys, values, out, op, n, cuda::std::equal_to<>{},
                                          cudaStreamPerThread) != cudaSuccess)
    return;
  void* const storage = kopt_suite::cub_scratch(bytes);
  if (storage == nullptr) return;
  cudaError_t const status = cub::DeviceScan::InclusiveScanByKey(
      storage, bytes, keys, values, out, op, n, cuda::std::equal_to<>{}, cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
}

// Calls scan(n, cols) for a rows x cols matrix of n elements: int offsets when n fits an int, else long long
// (nothing for an empty matrix).
template <typename Scan>
void with_row_scan_offsets(int rows, int cols, Scan scan) {
  if (rows <= 0 || cols <= 0) return;
  long long const n = static_cast<long long>(rows) * cols;
  if (n <= INT_MAX) {
    scan(static_cast<int>(n), cols);
  } else {
    scan(n, static_cast<long long>(cols));
  }
}

template <typename T>
void row_cumsum_baseline_cub(T* out, const T* in, int rows, int cols) {
  with_row_scan_offsets(rows, cols, [&](auto n, auto c) {
    inclusive_scan_by_key_cub(row_keys(c), row_cumsum_values(in), out, cuda::std::plus<float>{}, n);
  });
}
