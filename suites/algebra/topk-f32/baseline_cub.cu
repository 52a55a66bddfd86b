// Vendor baseline for topk-f32: CUB has no batched top-k, so every row is sorted in full, descending, with
// cub::DeviceSegmentedRadixSort::SortKeysDescending (one segment per row, segment offsets
// r * cols from a transform iterator) into a scratch copy of the matrix, and the first k values of each
// row are copied out with one cudaMemcpy2DAsync. That is more work than a top-k needs (a full sort), but
// it is what the vendor libraries offer. The scratch (sorted matrix, then CUB's temporary storage) is one
// buffer, allocated on the first call and grown (never per call) when a larger size needs more; the first
// call of each size case runs outside graph capture. Runs on the per-thread default stream kopt times on.

#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdio>
#include <cub/device/device_segmented_radix_sort.cuh>

#include "../cub-scratch.cuh"

namespace {

struct RowStart {
  int cols;
  __host__ __device__ int operator()(int row) const { return row * cols; }
};

}  // namespace

extern "C" void topk(float* out, const float* in, int rows, int cols, int k) {
  if (rows <= 0 || cols <= 0 || k <= 0 || k > cols) return;
  int const items = rows * cols;
  auto const begin_offsets =
      thrust::make_transform_iterator(thrust::make_counting_iterator(0), RowStart{cols});
  auto const end_offsets = begin_offsets + 1;
  std::size_t temp_bytes = 0;
  if (cub::DeviceSegmentedRadixSort::SortKeysDescending(
          nullptr, temp_bytes, in, static_cast<float*>(nullptr), items, rows, begin_offsets, end_offsets, 0,
          static_cast<int>(8 * sizeof(*in)), cudaStreamPerThread) != cudaSuccess)
    return;
  std::size_t const sorted_bytes = (static_cast<std::size_t>(items) * sizeof(*in) + 255) / 256 * 256;
  void* const storage = kopt_suite::cub_scratch(sorted_bytes + temp_bytes);
  if (storage == nullptr) return;
  auto* const sorted = static_cast<float*>(storage);
  void* const temp = static_cast<char*>(storage) + sorted_bytes;
  cudaError_t status = cub::DeviceSegmentedRadixSort::SortKeysDescending(
      temp, temp_bytes, in, sorted, items, rows, begin_offsets, end_offsets, 0,
      static_cast<int>(8 * sizeof(*in)), cudaStreamPerThread);
  if (status == cudaSuccess)
    status = cudaMemcpy2DAsync(out, static_cast<std::size_t>(k) * sizeof(*in), sorted,
                               static_cast<std::size_t>(cols) * sizeof(*in),
                               static_cast<std::size_t>(k) * sizeof(*in), static_cast<std::size_t>(rows),
                               cudaMemcpyDeviceToDevice, cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB or copy failed (%s)\n", cudaGetErrorString(status));
}
