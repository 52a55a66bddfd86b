// Vendor baseline of mse_loss-*, kl_div-*, kl_div_batchmean-* and hinge_loss_broadcast-*:
// cub::DeviceReduce::TransformReduce over the indices 0..n-1 (a counting iterator; the transform reads x[i]
// and y[i] and returns the FP32 term), added in FP32, written through a transform output iterator that
// divides by n and rounds to the output type: CUB's own kernels, no extra launch. The terms and the loss_rows
// index and divisor helpers are loss-common.cuh's.
#pragma once
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include <cstddef>
#include <cstdio>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include "cub-scratch.cuh"
#include "loss-common.cuh"

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

// The CUB baselines' sum of n terms into `result` (CUB's two calls: the scratch size, then the reduction, in
// the suite's scratch); a failure is reported on stderr and leaves the output as it was.
template <typename Terms, typename Result, typename Count>
void cub_sum_into(Terms terms, Result result, Count n) {
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

template <typename Term, typename T>
void loss_baseline_cub(T* out, const T* x, const T* y, int n) {
  if (n < 0) return;
  thrust::counting_iterator<long long> const indices(0);
  auto const terms = thrust::make_transform_iterator(indices, LossTermAt<Term, T>{x, y});
  auto const result = thrust::make_transform_output_iterator(out, MeanOf<T>{static_cast<float>(n)});
  cub_sum_into(terms, result, n);
}

// The FP32 term of element k of x and its y (the baseline's transform).
template <typename Term, LossY Y, typename T>
struct LossRowsTermAt {
  const T* x;
  const T* y;
  int cols;
  __host__ __device__ float operator()(long long k) const {
    return Term::fast(static_cast<float>(x[k]), static_cast<float>(y[loss_y_index<Y>(k, cols)]));
  }
};

// cub::DeviceReduce over the rows * cols terms, as loss_baseline_cub; the sum divided by rows or rows * cols.
template <typename Term, LossY Y, LossDivisor D, typename T>
void loss_rows_baseline_cub(T* out, const T* x, const T* y, int rows, int cols) {
  if (rows < 0 || cols < 0) return;
  long long const n = static_cast<long long>(rows) * cols;
  thrust::counting_iterator<long long> const indices(0);
  auto const terms = thrust::make_transform_iterator(indices, LossRowsTermAt<Term, Y, T>{x, y, cols});
  auto const result =
      thrust::make_transform_output_iterator(out, MeanOf<T>{static_cast<float>(loss_divisor<D>(rows, cols))});
  cub_sum_into(terms, result, n);
}
