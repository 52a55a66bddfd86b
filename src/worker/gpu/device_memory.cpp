#include <cuda_runtime_api.h>

#include <algorithm>

#include "worker/gpu/worker_state.hpp"

namespace kopt::worker {

PinnedStaging::~PinnedStaging() {
  if (ptr_ == nullptr) return;
  wipe(bytes_);
  cudaFreeHost(ptr_);
}

std::byte* PinnedStaging::reserve(std::size_t bytes) {
  if (bytes <= bytes_ && ptr_ != nullptr) return ptr_;
  if (ptr_ != nullptr) {
    wipe(bytes_);
    cudaFreeHost(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
  }
  void* p = nullptr;
  if (cudaMallocHost(&p, bytes == 0 ? 16 : bytes) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  ptr_ = static_cast<std::byte*>(p);
  bytes_ = bytes;
  return ptr_;
}

void PinnedStaging::wipe(std::size_t bytes) noexcept {
  kopt::worker::wipe(ptr_, std::min(bytes, bytes_));
}

}  // namespace kopt::worker
