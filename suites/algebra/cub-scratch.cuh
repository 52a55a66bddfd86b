// Temporary device storage for the CUB baselines of suites/algebra: one buffer per baseline library,
// allocated on the first call and grown (never per call) when a larger size case needs more. The first call
// of each size case runs during verification, outside graph capture.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>

namespace kopt_suite {

// At least `bytes` of device memory (1 byte when CUB asks for none), or nullptr after printing why.
inline void* cub_scratch(std::size_t bytes) {
  static void* buffer = nullptr;
  static std::size_t capacity = 0;
  if (bytes == 0) bytes = 1;
  if (bytes > capacity) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, bytes) != cudaSuccess) {
      std::fprintf(stderr, "baseline_cub.cu: cudaMalloc(%zu) failed\n", bytes);
      return nullptr;
    }
    capacity = bytes;
  }
  return buffer;
}

}  // namespace kopt_suite
