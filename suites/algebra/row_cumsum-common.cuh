// Shared by row_cumsum-f32 and row_cumsum-bf16 (its reference also by row_scan_variants-common.cuh):
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
// The vendor baseline (CUB) is in row_cumsum-cub.cuh.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

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
