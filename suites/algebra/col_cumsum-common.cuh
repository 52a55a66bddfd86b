// Shared by col_cumsum-f32 and col_cumsum-bf16: out[r*cols + c] = in[c] + in[cols + c] + ... + in[r*cols + c]
// for every row r and column c of a row-major rows x cols matrix (an inclusive cumulative sum along the
// first axis, torch.cumsum(x, dim=0)).
//
// Reference: one thread per column walks its column down the rows in order, keeping the running sum in
// double (free in this memory-bound loop, and it keeps the reference the accurate side of every
// comparison) and writing each output rounded once. Neighbouring threads take neighbouring columns, so a
// warp's accesses are coalesced but 4 or 2 bytes wide, and a few columns leave the GPU almost idle: naive
// on purpose, but obviously correct.
//
// No vendor baseline: CUB scans a flat array (DeviceScan) or segments of contiguous elements
// (InclusiveScanByKey); a column is a strided segment, so a library scan needs a transposed copy first (or
// a transposed iterator, whose loads are a row apart), which is not the operation a fair baseline times.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

template <typename T>
__global__ void col_cumsum_reference_kernel(T* out, const T* in, int rows, int cols) {
  long long const c = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  double running = 0.0;
  for (long long r = 0; r < rows; ++r) {
    running += static_cast<double>(static_cast<float>(in[r * cols + c]));
    out[r * cols + c] = static_cast<T>(running);
  }
}

template <typename T>
void col_cumsum_reference(T* out, const T* in, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  int const block = 128;
  col_cumsum_reference_kernel<T><<<(cols + block - 1) / block, block>>>(out, in, rows, cols);
}
