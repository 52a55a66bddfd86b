// Shared by mid_sum-f32 and mid_sum-bf16: out[b*cols + c] = sum_r in[(b*rows + r)*cols + c] for a row-major
// batch x rows x cols tensor (torch.sum(x, dim=1) of a 3-D tensor: each batch's rows x cols slab summed
// down its columns). One thread per output element (b, c), numbered b*cols + c, walking its column of the
// slab out of global memory (neighbouring threads read neighbouring columns, so a warp's loads are
// coalesced but narrow; with narrow slabs a warp spans several batches). The sum is accumulated in double,
// which keeps the reference the accurate side of every comparison, and rounded once to the output type.
// Naive on purpose but obviously correct.
//
// The cuBLAS baselines reuse col_sum's ones vector (../col_sum-common.cuh: filled once, grown never per
// call).
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

template <typename T>
__global__ void mid_sum_reference_kernel(T* out, const T* in, int batch, int rows, int cols) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(batch) * cols) return;
  long long const b = i / cols;
  long long const c = i % cols;
  T const* const column = in + b * rows * cols + c;
  double sum = 0.0;
  for (long long r = 0; r < rows; ++r) sum += static_cast<double>(static_cast<float>(column[r * cols]));
  out[i] = static_cast<T>(sum);
}

// The launch [launch] describes: ceil_div(batch*cols, 128) blocks of 128 threads.
template <typename T>
void mid_sum_reference(T* out, const T* in, int batch, int rows, int cols) {
  if (batch <= 0 || cols <= 0) return;
  long long const outputs = static_cast<long long>(batch) * cols;
  int const block = 128;
  auto const grid = static_cast<unsigned>((outputs + block - 1) / block);
  mid_sum_reference_kernel<T><<<grid, block>>>(out, in, batch, rows < 0 ? 0 : rows, cols);
}
