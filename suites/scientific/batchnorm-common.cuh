// Reference batch normalisation with given statistics (inference), shared by batchnorm-{f32,bf16}: an
// NCHW tensor x and per-channel mean, var, gamma, beta,
//   out[n][c][h][w] = (x[n][c][h][w] - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c]
// (PyTorch's batch_norm with training = false). One thread per element, the channel found by division,
// the four channel values read straight from global memory, the arithmetic in double, one rounding to the
// storage type: naive on purpose, and the accurate side of every comparison.
#pragma once
#include "element.cuh"

template <typename T>
__global__ void batchnorm_reference_kernel(T* out, const T* x, const T* mean, const T* var, const T* gamma,
                                           const T* beta, float eps, int N, int C, int H, int W) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const plane = static_cast<long long>(H) * W;
  if (i >= static_cast<long long>(N) * C * plane) return;
  int const c = static_cast<int>((i / plane) % C);
  using scientific_suite::to_float;
  double const centred = static_cast<double>(to_float(x[i])) - to_float(mean[c]);
  double const inv_std = 1.0 / sqrt(static_cast<double>(to_float(var[c])) + static_cast<double>(eps));
  double const y = centred * inv_std * to_float(gamma[c]) + to_float(beta[c]);
  out[i] = scientific_suite::from_float<T>(static_cast<float>(y));
}

template <typename T>
void batchnorm_reference(T* out, const T* x, const T* mean, const T* var, const T* gamma, const T* beta,
                         float eps, int N, int C, int H, int W) {
  long long const total = static_cast<long long>(N) * C * H * W;
  if (total <= 0) return;
  batchnorm_reference_kernel<T>
      <<<static_cast<unsigned>((total + 255) / 256), 256>>>(out, x, mean, var, gamma, beta, eps, N, C, H, W);
}
