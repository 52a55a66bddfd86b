// Vendor baseline of clamp-f32 and clamp-bf16: thrust::transform with the reference's functor (ClampOp, in
// clamp-common.cuh; CCCL's transform kernels) on the per-thread default stream kopt times on, without a
// synchronisation (par_nosync).
#pragma once
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include "clamp-common.cuh"

template <typename T>
void clamp_baseline_thrust(T* y, const T* x, float lo, float hi, int n) {
  if (n <= 0) return;
  thrust::transform(thrust::cuda::par_nosync.on(cudaStreamPerThread), x, x + n, y, ClampOp<T>{lo, hi});
}
