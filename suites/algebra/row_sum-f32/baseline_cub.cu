// Vendor baseline for row_sum-f32: cub::DeviceSegmentedReduce::Sum with one segment per row (FP32
// accumulation); the segment offsets r * cols come from a transform iterator over a counting iterator, so
// nothing is allocated for them. CUB needs temporary device storage: one buffer, allocated on the first
// call and grown (never per call) when a larger size needs more; the first call of each size case runs
// outside graph capture. Runs on the per-thread default stream kopt times on.
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdio>
#include <cub/device/device_segmented_reduce.cuh>

#include "../cub-scratch.cuh"

namespace {

struct RowStart {
  long long cols;
  __host__ __device__ long long operator()(long long row) const { return row * cols; }
};

}  // namespace

extern "C" void row_sum(float* out, const float* in, int rows, int cols) {
  if (rows <= 0 || cols < 0) return;
  auto const begin_offsets =
      thrust::make_transform_iterator(thrust::make_counting_iterator(0LL), RowStart{cols});
  auto const end_offsets = begin_offsets + 1;
  std::size_t bytes = 0;
  if (cub::DeviceSegmentedReduce::Sum(nullptr, bytes, in, out, rows, begin_offsets, end_offsets,
                                      cudaStreamPerThread) != cudaSuccess)
    return;
  void* const storage = kopt_suite::cub_scratch(bytes);
  if (storage == nullptr) return;
  cudaError_t const status = cub::DeviceSegmentedReduce::Sum(storage, bytes, in, out, rows, begin_offsets,
                                                             end_offsets, cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
}
