// Shared by reduce_sum-f32 and reduce_sum-bf16: *out = sum_i in[i]. A single block of 1024 threads:
// thread t accumulates in[i] for i = t, t + 1024, ... in double, then the block adds the 1024 partial
// sums in a fixed shared-memory tree and thread 0 rounds once to the output type. One block because
// there is one output; the double accumulator makes the reference the accurate side of every comparison
// (a float sum over 64M terms with cancellation drifts). Slow on purpose (one SM does all the work) but
// obviously correct and deterministic.
#pragma once
#include <cuda_bf16.h>

constexpr int kReduceSumReferenceThreads = 1024;

template <typename T>
__global__ void reduce_sum_reference_kernel(T* out, const T* in, int n) {
  __shared__ double partial[kReduceSumReferenceThreads];
  double sum = 0.0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x)
    sum += static_cast<double>(static_cast<float>(in[i]));
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kReduceSumReferenceThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = static_cast<T>(partial[0]);
}

template <typename T>
void reduce_sum_reference(T* out, const T* in, int n) {
  reduce_sum_reference_kernel<T><<<1, kReduceSumReferenceThreads>>>(out, in, n < 0 ? 0 : n);
}
