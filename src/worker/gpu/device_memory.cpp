#include <cuda_runtime_api.h>

#include <algorithm>

#include "worker/gpu/worker_state.hpp"

namespace kopt::worker {

DeviceMemory::DeviceMemory(std::size_t bytes) {
  if (cudaMalloc(&ptr_, bytes == 0 ? 16 : bytes) != cudaSuccess) {
    cudaGetLastError();
    ptr_ = nullptr;
  }
}

DeviceMemory::~DeviceMemory() {
  if (ptr_ != nullptr) cudaFree(ptr_);
}

DeviceMemory& DeviceMemory::operator=(DeviceMemory&& other) noexcept {
  if (this != &other) {
    if (ptr_ != nullptr) cudaFree(ptr_);
    ptr_ = std::exchange(other.ptr_, nullptr);
  }
  return *this;
}

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
