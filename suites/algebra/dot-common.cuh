// Shared by dot-f32 and dot-bf16: *result = sum_i x[i] * y[i]. A single block of 1024 threads: thread t
// accumulates the products x[i]*y[i] for i = t, t + 1024, ... in double (the product of two floats is
// exact in double), then the block adds the 1024 partial sums in a fixed shared-memory tree and thread
// 0 rounds once to the output type. One block because there is one output; the double accumulator makes
// the reference the accurate side of every comparison (a float sum over 32M terms with cancellation
// drifts). Slow on purpose (one SM does all the work) but obviously correct and deterministic.
#pragma once
#include <cuda_bf16.h>

constexpr int kDotReferenceThreads = 1024;

template <typename T>
__global__ void dot_reference_kernel(T* result, const T* x, const T* y, int n) {
  __shared__ double partial[kDotReferenceThreads];
  double sum = 0.0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x)
    sum += static_cast<double>(static_cast<float>(x[i])) * static_cast<double>(static_cast<float>(y[i]));
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kDotReferenceThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = static_cast<T>(partial[0]);
}

template <typename T>
void dot_reference(T* result, const T* x, const T* y, int n) {
  dot_reference_kernel<T><<<1, kDotReferenceThreads>>>(result, x, y, n < 0 ? 0 : n);
}
