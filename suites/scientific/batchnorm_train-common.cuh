// Reference batch normalisation in training mode, shared by batchnorm_train-{f32,bf16}: an NCHW tensor x,
// per-channel gamma and beta, and the statistics of the batch per channel c over its N planes of H*W:
//   mean[c] = sum over (n, h, w) of x[n][c][h][w] / (N*H*W)
//   var[c]  = sum over (n, h, w) of (x[n][c][h][w] - mean[c])^2 / (N*H*W)   (biased, as PyTorch normalises)
//   out[n][c][h][w] = (x[n][c][h][w] - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c]
// (PyTorch's batch_norm with training = true; mean and var are its save_mean and the variance behind its
// save_invstd). Two kernels, naive on purpose: one thread per channel makes two passes over the channel's
// planes in double (the mean, then the squared deviations from it), writes mean and var rounded once to the
// storage type and keeps the double mean and 1/sqrt(var + eps) in a scratch buffer; then one thread per
// element, the channel found by division, the arithmetic in double, one rounding. The accurate side of
// every comparison. No vendor baseline: cuDNN (which has one) is not installed.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "element.cuh"

// With running_mean (batchnorm_train_running-*, PyTorch's native_batch_norm and cuDNN's forward training):
// var receives save_invstd = 1/sqrt(var + eps) instead, and running_mean / running_var move towards the
// batch's mean and unbiased variance (var * count / (count - 1)) by momentum, in double, rounded once.
template <typename T>
__global__ void batchnorm_train_stats_reference_kernel(T* mean, T* var, double2* stats, const T* x, float eps,
                                                       int N, int C, int H, int W, T* running_mean,
                                                       T* running_var, float momentum) {
  int const c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (c >= C) return;
  using scientific_suite::to_double;
  long long const plane = static_cast<long long>(H) * W;
  double const count = static_cast<double>(N) * static_cast<double>(plane);
  double sum = 0.0;
  for (int n = 0; n < N; ++n) {
    const T* p = x + (static_cast<long long>(n) * C + c) * plane;
    for (long long i = 0; i < plane; ++i) sum += to_double(p[i]);
  }
  double const m = sum / count;
  double squares = 0.0;
  for (int n = 0; n < N; ++n) {
    const T* p = x + (static_cast<long long>(n) * C + c) * plane;
    for (long long i = 0; i < plane; ++i) {
      double const d = to_double(p[i]) - m;
      squares += d * d;
    }
  }
  double const v = squares / count;
  double const invstd = 1.0 / sqrt(v + static_cast<double>(eps));
  scientific_suite::store(&mean[c], m);
  if (running_mean == nullptr) {
    scientific_suite::store(&var[c], v);
  } else {
    double const unbiased = count > 1.0 ? v * count / (count - 1.0) : v;
    double const f = static_cast<double>(momentum);
    scientific_suite::store(&var[c], invstd);
    scientific_suite::store(&running_mean[c], (1.0 - f) * to_double(running_mean[c]) + f * m);
    scientific_suite::store(&running_var[c], (1.0 - f) * to_double(running_var[c]) + f * unbiased);
  }
  stats[c] = make_double2(m, invstd);
}

template <typename T>
__global__ void batchnorm_train_apply_reference_kernel(T* out, const T* x, const double2* stats,
                                                       const T* gamma, const T* beta, int N, int C, int H,
                                                       int W) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const plane = static_cast<long long>(H) * W;
  if (i >= static_cast<long long>(N) * C * plane) return;
  int const c = static_cast<int>((i / plane) % C);
  using scientific_suite::to_double;
  double2 const s = stats[c];
  scientific_suite::store(&out[i], (to_double(x[i]) - s.x) * s.y * to_double(gamma[c]) + to_double(beta[c]));
}

// Per-channel (mean, 1/sqrt(var + eps)) in double: grown when a call needs more, never freed.
inline double2* batchnorm_train_reference_scratch(int C) {
  static double2* buffer = nullptr;
  static int capacity = 0;
  if (C > capacity) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, static_cast<size_t>(C) * sizeof(double2)) != cudaSuccess) return nullptr;
    capacity = C;
  }
  return buffer;
}

// running_mean == nullptr: batchnorm_train-*; otherwise batchnorm_train_running-* (var is save_invstd).
template <typename T>
void batchnorm_train_reference(T* out, T* mean, T* var, const T* x, const T* gamma, const T* beta, float eps,
                               int N, int C, int H, int W, T* running_mean = nullptr,
                               T* running_var = nullptr, float momentum = 0.0f) {
  if (C <= 0) return;
  double2* stats = batchnorm_train_reference_scratch(C);
  if (stats == nullptr) return;
  batchnorm_train_stats_reference_kernel<T>
      <<<(C + 127) / 128, 128>>>(mean, var, stats, x, eps, N, C, H, W, running_mean, running_var, momentum);
  long long const total = static_cast<long long>(N) * C * H * W;
  if (total <= 0) return;
  batchnorm_train_apply_reference_kernel<T>
      <<<static_cast<unsigned>((total + 255) / 256), 256>>>(out, x, stats, gamma, beta, N, C, H, W);
}
