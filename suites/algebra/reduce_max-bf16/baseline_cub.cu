// Vendor baseline for reduce_max-bf16: cub::DeviceReduce::TransformReduce that widens each BF16 value to
// float and takes the maximum (exact, so the BF16 store is exact). CUB needs temporary device storage: one
// buffer, allocated on the first call and grown (never per call) when a larger size needs more; the first
// call of each size case runs outside graph capture. Runs on the per-thread default stream kopt times on.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cub/device/device_reduce.cuh>
#include <cuda/functional>
#include <cuda/std/functional>

#include "../cub-scratch.cuh"

namespace {

struct ToFloat {
  __host__ __device__ float operator()(__nv_bfloat16 v) const { return __bfloat162float(v); }
};

}  // namespace

extern "C" void reduce_max(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  if (n < 0) return;
  std::size_t bytes = 0;
  void* storage = nullptr;
  if (cub::DeviceReduce::TransformReduce(storage, bytes, in, out, n, cuda::maximum<float>{}, ToFloat{},
                                         -INFINITY, cudaStreamPerThread) != cudaSuccess)
    return;
  storage = kopt_suite::cub_scratch(bytes);
  if (storage == nullptr) return;
  cudaError_t const status = cub::DeviceReduce::TransformReduce(
      storage, bytes, in, out, n, cuda::maximum<float>{}, ToFloat{}, -INFINITY, cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
}
