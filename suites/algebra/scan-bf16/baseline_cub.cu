// Vendor baseline for scan-bf16: cub::DeviceScan::InclusiveScan over a transform iterator that widens
// each BF16 value to float, so the running sum is kept in FP32 and each output rounded once to BF16
// (InclusiveSum on BF16 pointers would accumulate in BF16). CUB needs temporary device storage: one
// buffer, allocated on the first call and grown (never per call) when a larger size needs more; the
// first call of each size case runs outside graph capture. Runs on the per-thread default stream kopt
// times on.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdio>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

#include "../cub-scratch.cuh"

namespace {

struct ToFloat {
  __host__ __device__ float operator()(__nv_bfloat16 v) const { return __bfloat162float(v); }
};

}  // namespace

extern "C" void scan(__nv_bfloat16* out, const __nv_bfloat16* in, int n) {
  if (n <= 0) return;
  auto const widened = thrust::make_transform_iterator(in, ToFloat{});
  std::size_t bytes = 0;
  if (cub::DeviceScan::InclusiveScan(nullptr, bytes, widened, out, cuda::std::plus<float>{}, n,
                                     cudaStreamPerThread) != cudaSuccess)
    return;
  void* const storage = kopt_suite::cub_scratch(bytes);
  if (storage == nullptr) return;
  cudaError_t const status = cub::DeviceScan::InclusiveScan(storage, bytes, widened, out,
                                                            cuda::std::plus<float>{}, n, cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
}
