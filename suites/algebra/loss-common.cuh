// Shared by mse_loss-* and kl_div-*: a loss that is the mean over 0 <= i < n of a per-element term of two
// vectors, *out = (1/n) sum_i term(x[i], y[i]).
//
// Reference: a single block of 1024 threads; thread t adds term(x[i], y[i]) for i = t, t + 1024, ... in
// double, the block adds the 1024 partial sums in a fixed shared-memory tree, and thread 0 divides by n and
// rounds once to the output type (as dot-common.cuh: slow on purpose, obviously correct, deterministic,
// and the accurate side of every comparison).
//
// Vendor baseline: cub::DeviceReduce::TransformReduce over the indices 0..n-1 (a counting iterator; the
// transform reads x[i] and y[i] and returns the FP32 term), added in FP32, written through a transform
// output iterator that divides by n and rounds to the output type: CUB's own kernels, no extra launch.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <cstddef>
#include <cstdio>
#include <cub/cub.cuh>
#include <cuda/std/functional>

#include "cub-scratch.cuh"

constexpr int kLossReferenceThreads = 1024;

template <typename Term, typename T>
__global__ void loss_reference_kernel(T* out, const T* x, const T* y, int n) {
  __shared__ double partial[kLossReferenceThreads];
  double sum = 0.0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x)
    sum += Term::exact(static_cast<double>(static_cast<float>(x[i])),
                       static_cast<double>(static_cast<float>(y[i])));
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kLossReferenceThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = static_cast<T>(n > 0 ? partial[0] / n : 0.0);
}

template <typename Term, typename T>
void loss_reference(T* out, const T* x, const T* y, int n) {
  loss_reference_kernel<Term, T><<<1, kLossReferenceThreads>>>(out, x, y, n < 0 ? 0 : n);
}

// The FP32 term of element i (the baseline's transform).
template <typename Term, typename T>
struct LossTermAt {
  const T* x;
  const T* y;
  __host__ __device__ float operator()(long long i) const {
    return Term::fast(static_cast<float>(x[i]), static_cast<float>(y[i]));
  }
};

// sum -> sum / n, rounded once to T (the baseline's output).
template <typename T>
struct MeanOf {
  float n;
  __host__ __device__ T operator()(float sum) const { return static_cast<T>(n > 0.0f ? sum / n : 0.0f); }
};

template <typename Term, typename T>
void loss_baseline_cub(T* out, const T* x, const T* y, int n) {
  if (n < 0) return;
  thrust::counting_iterator<long long> const indices(0);
  auto const terms = thrust::make_transform_iterator(indices, LossTermAt<Term, T>{x, y});
  auto const result = thrust::make_transform_output_iterator(out, MeanOf<T>{static_cast<float>(n)});
  std::size_t bytes = 0;
  void* storage = nullptr;
  if (cub::DeviceReduce::Reduce(storage, bytes, terms, result, n, cuda::std::plus<float>{}, 0.0f,
                                cudaStreamPerThread) != cudaSuccess)
    return;
  storage = kopt_suite::cub_scratch(bytes);
  if (storage == nullptr) return;
  cudaError_t const status = cub::DeviceReduce::Reduce(storage, bytes, terms, result, n,
                                                       cuda::std::plus<float>{}, 0.0f, cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
}

// Mean squared error: term (x - y)^2.
struct SquaredError {
  __host__ __device__ static double exact(double x, double y) { return (x - y) * (x - y); }
  __host__ __device__ static float fast(float x, float y) { return (x - y) * (x - y); }
};

// Kullback-Leibler divergence of targets y (probabilities, > 0) from predictions given as log-probabilities
// x, PyTorch's kl_div(input = x, target = y, reduction = "mean"): term y * (log y - x).
struct KlTerm {
  __host__ __device__ static double exact(double x, double y) { return y * (log(y) - x); }
  __host__ __device__ static float fast(float x, float y) { return y * (logf(y) - x); }
};
