// Shared by suites/llm/linear_relu-f32 and linear_relu-bf16: nn.Linear followed by ReLU,
// out[m][n] = max(sum_k x[m][k] * weight[n][k] + bias[n], 0), with x (M x K), weight (N x K: PyTorch's
// layout, one row per output feature), bias (N) and out (M x N) row-major. One thread per element of out in
// 16 x 16 blocks, each running the whole K loop out of global memory (no tiling, no shared memory), the sum
// in double (products of two floats are exact there) and one rounding to the output type. Naive on purpose
// but obviously correct.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_linear_relu {

using namespace kopt_suite;

template <typename T>
__global__ void linear_relu_reference_kernel(T* out, const T* x, const T* weight, const T* bias, int M, int N,
                                             int K) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  double sum = static_cast<double>(to_float(bias[col]));
  for (int k = 0; k < K; ++k)
    sum += static_cast<double>(to_float(x[static_cast<long long>(row) * K + k])) *
           static_cast<double>(to_float(weight[static_cast<long long>(col) * K + k]));
  out[static_cast<long long>(row) * N + col] = T(static_cast<float>(sum > 0.0 ? sum : 0.0));
}

template <typename T>
void launch(T* out, const T* x, const T* weight, const T* bias, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  linear_relu_reference_kernel<T><<<grid, block>>>(out, x, weight, bias, M, N, K);
}

}  // namespace llm_linear_relu
