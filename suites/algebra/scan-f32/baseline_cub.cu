// Vendor baseline for scan-f32: cub::DeviceScan::InclusiveSum (FP32 accumulation, single-pass
// decoupled look-back). CUB needs temporary device storage: one buffer, allocated on the first call and
// grown (never per call) when a larger size needs more; the first call of each size case runs outside
// graph capture. Runs on the per-thread default stream kopt times on.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cub/device/device_scan.cuh>

#include "../cub-scratch.cuh"

extern "C" void scan(float* out, const float* in, int n) {
  if (n <= 0) return;
  std::size_t bytes = 0;
  if (cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, n, cudaStreamPerThread) != cudaSuccess) return;
  void* const storage = kopt_suite::cub_scratch(bytes);
  if (storage == nullptr) return;
  cudaError_t const status = cub::DeviceScan::InclusiveSum(storage, bytes, in, out, n, cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
}
