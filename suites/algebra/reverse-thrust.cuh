// Vendor baseline of reverse-f32 and reverse-bf16: thrust::copy from a reverse iterator (CCCL's transform
// kernels) on the per-thread default stream kopt times on, without a synchronisation (par_nosync).
#pragma once
#include <cuda_runtime.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/reverse_iterator.h>

#include "reverse-common.cuh"

template <typename T>
void reverse_baseline_thrust(T* out, const T* in, int n) {
  if (n <= 0) return;
  thrust::copy(thrust::cuda::par_nosync.on(cudaStreamPerThread), thrust::make_reverse_iterator(in + n),
               thrust::make_reverse_iterator(in), out);
}
