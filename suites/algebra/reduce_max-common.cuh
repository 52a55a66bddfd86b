// Shared by reduce_max-f32 and reduce_max-bf16: *out = max_i in[i] (-infinity when n == 0). A single
// block of 1024 threads: thread t takes the maximum of in[i] for i = t, t + 1024, ..., then the block
// combines the 1024 partial maxima in a shared-memory tree and thread 0 writes the result. The maximum is
// exact in any order (inputs hold no NaN), so the output is bit-exact. Slow on purpose (one SM does all
// the work) but obviously correct.
#pragma once
#include <cuda_bf16.h>

constexpr int kReduceMaxReferenceThreads = 1024;

template <typename T>
__global__ void reduce_max_reference_kernel(T* out, const T* in, int n) {
  __shared__ float partial[kReduceMaxReferenceThreads];
  float best = -INFINITY;
  for (long long i = threadIdx.x; i < n; i += blockDim.x) best = fmaxf(best, static_cast<float>(in[i]));
  partial[threadIdx.x] = best;
  __syncthreads();
  for (int stride = kReduceMaxReferenceThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride)
      partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + stride]);
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = static_cast<T>(partial[0]);
}

template <typename T>
void reduce_max_reference(T* out, const T* in, int n) {
  reduce_max_reference_kernel<T><<<1, kReduceMaxReferenceThreads>>>(out, in, n < 0 ? 0 : n);
}
