// Shared by suites/llm/linear_relu-f32, linear_relu-bf16, linear_relu_scale-f32 and linear_relu_scale-bf16:
// nn.Linear followed by ReLU, out[m][n] = max(sum_k x[m][k] * weight[n][k] + bias[n], 0), with x (M x K),
// weight (N x K: PyTorch's layout, one row per output feature), bias (N) and out (M x N) row-major; the
// linear_relu_scale tasks pass a per-feature scale (N values, LayerScale-like) and get that times scale[n]
// (the product taken in double after the ReLU, so still one rounding); linear_relu passes none. One thread
// per element of out in 16 x 16 blocks, each running the whole K loop out of global memory (no tiling, no
// shared memory), the sum in double (products of two floats are exact there) and one rounding to the
// output type. Naive on purpose but obviously correct.
#pragma once
#include <cuda_bf16.h>

#include "../common/element.cuh"

namespace llm_linear_relu {

using namespace kopt_suite;

template <typename T>
__global__ void linear_relu_reference_kernel(T* out, const T* x, const T* weight, const T* bias, int M, int N,
                                             int K, const T* scale) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  double sum = static_cast<double>(to_float(bias[col]));
  for (int k = 0; k < K; ++k)
    sum += static_cast<double>(to_float(x[static_cast<long long>(row) * K + k])) *
           static_cast<double>(to_float(weight[static_cast<long long>(col) * K + k]));
  double value = sum > 0.0 ? sum : 0.0;
  if (scale != nullptr) value *= static_cast<double>(to_float(scale[col]));
  out[static_cast<long long>(row) * N + col] = T(static_cast<float>(value));
}

// scale: nullptr for linear_relu, the per-feature scale (N values) for linear_relu_scale.
template <typename T>
void launch(T* out, const T* x, const T* weight, const T* bias, int M, int N, int K,
            const T* scale = nullptr) {
  if (M <= 0 || N <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  linear_relu_reference_kernel<T><<<grid, block>>>(out, x, weight, bias, M, N, K, scale);
}

}  // namespace llm_linear_relu
