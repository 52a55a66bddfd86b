// Vendor baseline for row_sum-bf16: cub::DeviceSegmentedReduce::Reduce with one segment per row over a
// transform iterator that widens each BF16 value to float, adding in FP32 and rounding once on the store
// (plain DeviceSegmentedReduce::Sum would accumulate in BF16); the segment offsets r * cols come from a
// transform iterator over a counting iterator, so nothing is allocated for them. CUB needs temporary
// device storage: one buffer, allocated on the first call and grown (never per call) when a larger size
// needs more; the first call of each size case runs outside graph capture. Runs on the per-thread default
// stream kopt times on.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdio>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>

#include "../cub-scratch.cuh"

namespace {

struct RowStart {
  long long cols;
  __host__ __device__ long long operator()(long long row) const { return row * cols; }
};

struct ToFloat {
  __host__ __device__ float operator()(__nv_bfloat16 v) const { return __bfloat162float(v); }
};

}  // namespace

extern "C" void row_sum(__nv_bfloat16* out, const __nv_bfloat16* in, int rows, int cols) {
  if (rows <= 0 || cols < 0) return;
  auto const values = thrust::make_transform_iterator(in, ToFloat{});
  auto const begin_offsets =
      thrust::make_transform_iterator(thrust::make_counting_iterator(0LL), RowStart{cols});
  auto const end_offsets = begin_offsets + 1;
  std::size_t bytes = 0;
  if (cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, values, out, rows, begin_offsets, end_offsets,
                                         cuda::std::plus<float>{}, 0.0f, cudaStreamPerThread) != cudaSuccess)
    return;
  void* const storage = kopt_suite::cub_scratch(bytes);
  if (storage == nullptr) return;
  cudaError_t const status =
      cub::DeviceSegmentedReduce::Reduce(storage, bytes, values, out, rows, begin_offsets, end_offsets,
                                         cuda::std::plus<float>{}, 0.0f, cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
}
