// Shared by row_cumsum-f32 and row_cumsum-bf16 (its CUB pieces also by row_scan_variants-common.cuh):
// out[r*cols + c] = in[r*cols] + ... + in[r*cols + c] for every row r and column c of a row-major rows x cols
// matrix (an inclusive cumulative sum along the last axis, torch.cumsum(x, dim=-1)).
//
// Reference (row_scan_reference, shared with the variants): one thread per row walks its row in order,
// keeping the running sum in double (free in this memory-bound loop, and it keeps the reference the accurate
// side of every comparison) and writing each output rounded once. Neighbouring threads are a whole row apart,
// so loads and stores are uncoalesced, and a few long rows leave the GPU almost idle: naive on purpose, but
// obviously correct. (One thread per output element, the suites' usual naive form, would cost O(cols^2) per
// row.)
//
// Vendor baseline: cub::DeviceScan::InclusiveScanByKey over the whole matrix, the key of element i being
// its row i / cols (a transform of a counting iterator, nothing stored), so the scan restarts at every row;
// FP32 running sums (BF16 is widened to float by a transform iterator, each output rounded once). CUB's
// temporary storage is the grow-only scratch of cub-scratch.cuh. Offsets are 32-bit when rows * cols fits
// an int, else 64-bit.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cub/cub.cuh>
#include <cuda/std/functional>

#include "cub-scratch.cuh"

// The row scans of the suites: row_cumsum's inclusive sum and row_scan_variants-common.cuh's suffix sum
// (reverse), running product, masked sum (x * (mask != 0), mask one byte per element) and exclusive sum.
enum class RowScan { inclusive, reverse, product, masked, exclusive };

template <RowScan kScan, typename T>
__global__ void row_scan_reference_kernel(T* out, const T* in, const std::uint8_t* mask, int rows, int cols) {
  long long const row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  double running = kScan == RowScan::product ? 1.0 : 0.0;
  for (int k = 0; k < cols; ++k) {
    long long const i = row * cols + (kScan == RowScan::reverse ? cols - 1 - k : k);
    double x = static_cast<double>(static_cast<float>(in[i]));
    // x * mask as PyTorch computes it for a bool mask (a multiply, not a select).
    if (kScan == RowScan::masked) x *= mask[i] != 0 ? 1.0 : 0.0;
    if (kScan == RowScan::exclusive) out[i] = static_cast<T>(running);  // the sum before the element
    running = kScan == RowScan::product ? running * x : running + x;
    if (kScan != RowScan::exclusive) out[i] = static_cast<T>(running);
  }
}

// One thread per row (blocks of 128); `mask` is read by the masked scan only.
template <RowScan kScan, typename T>
void row_scan_reference(T* out, const T* in, const std::uint8_t* mask, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  row_scan_reference_kernel<kScan, T><<<(rows + 127) / 128, 128>>>(out, in, mask, rows, cols);
}

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
// temporary storage is the grow-only scratch. Shared with row_scan_variants-common.cuh.
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
