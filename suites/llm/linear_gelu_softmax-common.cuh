// Shared by suites/llm/linear_gelu_softmax-f32 and linear_gelu_softmax-bf16: a chain of two PyTorch ops,
// nn.Linear + GELU and then a softmax over the features (KernelBench level 2's 99_Matmul_GELU_Softmax),
//   t0[m][n]  = gelu(sum_k x[m][k] * weight[n][k] + bias[n]),  gelu(v) = 0.5 v (1 + erf(v / sqrt(2))),
//   out[m][n] = exp(t0[m][n] - max_j t0[m][j]) / sum_j exp(t0[m][j] - max_j t0[m][j]),
// with x (M x K), weight (N x K: PyTorch's layout, one row per output feature), bias (N) and out (M x N)
// row-major. GELU is the exact erf form (F.gelu's default), not the tanh approximation. t0 is the chain's
// intermediate (task.toml's [[intermediates]]): M x N elements of the task's element type, each rounded once
// to it, as eager PyTorch stores the GELU's output before the softmax reads it (eager BF16 also rounds the
// linear's output before the GELU: one rounding per stage is the chain's contract, the linear family with
// GELU as its `op`; the extra eager rounding is within the tolerance, see the BF16 task.toml).
//
// Naive on purpose but obviously correct, two kernels on the default stream:
//   1. linear + GELU into t0: one thread per element in 16 x 16 blocks, as linear_relu's reference (the whole
//      K loop out of global memory, no tiling, no shared memory), the sum and the GELU in double (products of
//      two floats are exact there) and one rounding to the element type;
//   2. the softmax of each row of t0 into out: row_softmax's reference (../row_softmax-common.cuh), one
//      thread per row, max, sum of exponentials and the normalised write in double, one rounding per output.
// t0 lives in one device allocation of this header, grown when a larger size case needs more (never per
// call), as cross_entropy_mean's and matrix_power's scratch; the first call of each size case runs outside
// graph capture, where the growing happens.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>

#include "../common/element.cuh"
#include "row_softmax-common.cuh"

namespace llm_linear_gelu_softmax {

using namespace kopt_suite;

template <typename T>
__global__ void linear_gelu_reference_kernel(T* t0, const T* x, const T* weight, const T* bias, int M, int N,
                                             int K) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  double sum = to_double(bias[col]);
  for (int k = 0; k < K; ++k)
    sum += to_double(x[static_cast<long long>(row) * K + k]) *
           to_double(weight[static_cast<long long>(col) * K + k]);
  double const gelu = 0.5 * sum * (1.0 + erf(sum * 0.70710678118654752440));
  store(&t0[static_cast<long long>(row) * N + col], gelu);
}

// At least `bytes` of device memory for t0, or nullptr after printing why.
inline void* intermediate_buffer(size_t bytes) {
  static void* buffer = nullptr;
  static size_t capacity = 0;
  if (bytes > capacity) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, bytes) != cudaSuccess) {
      std::fprintf(stderr, "linear_gelu_softmax reference: cudaMalloc of %zu bytes for t0 failed\n", bytes);
      buffer = nullptr;
      return nullptr;
    }
    capacity = bytes;
  }
  return buffer;
}

template <typename T>
void launch(T* out, const T* x, const T* weight, const T* bias, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  T* const t0 =
      static_cast<T*>(intermediate_buffer(static_cast<size_t>(M) * static_cast<size_t>(N) * sizeof(T)));
  if (t0 == nullptr) return;  // out stays poisoned: the failure is visible
  dim3 const block(16, 16);
  dim3 const grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  linear_gelu_reference_kernel<T><<<grid, block>>>(t0, x, weight, bias, M, N, K);
  llm_row_softmax::launch(out, static_cast<const T*>(t0), M, N);
}

}  // namespace llm_linear_gelu_softmax
