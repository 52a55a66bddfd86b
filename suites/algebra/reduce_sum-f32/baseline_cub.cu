// Vendor baseline for reduce_sum-f32: cub::DeviceReduce::Sum (FP32 accumulation).
// CUB needs temporary device storage: one buffer, allocated on the first call and grown (never per
// call) when a larger size needs more; the first call of each size case runs outside graph capture.
// Runs on the per-thread default stream kopt times on.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cub/device/device_reduce.cuh>
#include <cuda/functional>
#include <cuda/std/functional>

#include "../cub-scratch.cuh"

extern "C" void reduce_sum(float* out, const float* in, int n) {
  if (n < 0) return;
  std::size_t bytes = 0;
  void* storage = nullptr;
  if (cub::DeviceReduce::Sum(storage, bytes, in, out, n, cudaStreamPerThread) != cudaSuccess) return;
  storage = kopt_suite::cub_scratch(bytes);
  if (storage == nullptr) return;
  cudaError_t const status = cub::DeviceReduce::Sum(storage, bytes, in, out, n, cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
}
