// Shared by channel_rmsnorm-f32 and channel_rmsnorm-bf16: RMS normalisation over the middle dimension of a
// row-major batch x rows x cols tensor without a weight, eps = 1e-5 (KernelBench level1/36_RMSNorm_ on an
// NCHW activation with rows = C channels and cols = H*W: x / sqrt(mean(x^2, dim=1, keepdim=True) + eps)):
//   out[b][r][c] = in[b][r][c] / sqrt(sum over r' of in[b][r'][c]^2 / rows + 1e-5)
// One thread per column (b, c), numbered b*cols + c, walking its column of the slab out of global memory
// twice (neighbouring threads read neighbouring columns, so a warp's loads are coalesced but narrow): the sum
// of squares in double, then each element divided in double and rounded once to the output type. Naive on
// purpose but obviously correct; the accurate side of every comparison.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "../common/element.cuh"

template <typename T>
__global__ void channel_rmsnorm_reference_kernel(T* out, const T* in, int batch, int rows, int cols) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(batch) * cols) return;
  using kopt_suite::to_double;
  long long const b = i / cols;
  long long const c = i % cols;
  long long const offset = b * rows * cols + c;
  const T* column = in + offset;
  T* y = out + offset;
  double squares = 0.0;
  for (long long r = 0; r < rows; ++r) {
    double const v = to_double(column[r * cols]);
    squares += v * v;
  }
  double const rms = sqrt(squares / rows + 1e-5);
  for (long long r = 0; r < rows; ++r) kopt_suite::store(&y[r * cols], to_double(column[r * cols]) / rms);
}

// The launch [launch] describes: ceil_div(batch*cols, 128) blocks of 128 threads.
template <typename T>
void channel_rmsnorm_reference(T* out, const T* in, int batch, int rows, int cols) {
  if (batch <= 0 || rows <= 0 || cols <= 0) return;
  long long const columns = static_cast<long long>(batch) * cols;
  int const block = 128;
  auto const grid = static_cast<unsigned>((columns + block - 1) / block);
  channel_rmsnorm_reference_kernel<T><<<grid, block>>>(out, in, batch, rows, cols);
}
