// Vendor baseline for sort-f32: cub::DeviceRadixSort::SortKeys (float keys), all key bits,
// ascending, from in to out (in is left untouched). CUB needs temporary device storage: one buffer,
// allocated on the first call and grown (never per call) when a larger size needs more; the first call of
// each size case runs outside graph capture. Runs on the per-thread default stream kopt times on.

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cub/device/device_radix_sort.cuh>

#include "../cub-scratch.cuh"

extern "C" void sort(float* out, const float* in, int n) {
  if (n <= 0) return;
  std::size_t bytes = 0;
  if (cub::DeviceRadixSort::SortKeys(nullptr, bytes, in, out, n, 0, static_cast<int>(8 * sizeof(*in)),
                                     cudaStreamPerThread) != cudaSuccess)
    return;
  void* const storage = kopt_suite::cub_scratch(bytes);
  if (storage == nullptr) return;
  cudaError_t const status = cub::DeviceRadixSort::SortKeys(
      storage, bytes, in, out, n, 0, static_cast<int>(8 * sizeof(*in)), cudaStreamPerThread);
  if (status != cudaSuccess)
    std::fprintf(stderr, "baseline_cub.cu: CUB failed (%s)\n", cudaGetErrorString(status));
}
