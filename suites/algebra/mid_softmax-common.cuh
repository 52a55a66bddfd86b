// Shared by mid_softmax-f32 and mid_softmax-bf16: a softmax along the middle dimension of a row-major
// batch x rows x cols tensor (torch.softmax(x, dim=1) of an N x C x H x W activation, cols = H * W: the
// classes of a segmentation head, the channels of KernelBench level 2's Conv3d_..._Softmax chains),
//   out[b][r][c] = exp(in[b][r][c] - m_bc) / sum_k exp(in[b][k][c] - m_bc),  m_bc = max_k in[b][k][c].
// One thread per column (b, c), numbered b*cols + c, three walks down its column (the maximum, the sum of
// exponentials, the outputs) in double, each output rounded once. Naive on purpose (every walk re-reads the
// column from global memory) but obviously correct.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace algebra_mid_softmax {

using namespace kopt_suite;

template <typename T>
__global__ void mid_softmax_reference_kernel(T* out, const T* in, int batch, int rows, int cols) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(batch) * cols) return;
  long long const b = i / cols;
  long long const c = i % cols;
  T const* const x = in + b * rows * cols + c;
  T* const y = out + b * rows * cols + c;
  double max_value = to_double(x[0]);
  for (long long r = 1; r < rows; ++r) max_value = fmax(max_value, to_double(x[r * cols]));
  double sum = 0.0;
  for (long long r = 0; r < rows; ++r) sum += exp(to_double(x[r * cols]) - max_value);
  for (long long r = 0; r < rows; ++r) store(&y[r * cols], exp(to_double(x[r * cols]) - max_value) / sum);
}

// The launch [launch] describes: ceil_div(batch*cols, 128) blocks of 128 threads.
template <typename T>
void launch(T* out, const T* in, int batch, int rows, int cols) {
  if (batch <= 0 || rows <= 0 || cols <= 0) return;
  long long const columns = static_cast<long long>(batch) * cols;
  int const block = 128;
  mid_softmax_reference_kernel<<<static_cast<unsigned>((columns + block - 1) / block), block>>>(
      out, in, batch, rows, cols);
}

}  // namespace algebra_mid_softmax
