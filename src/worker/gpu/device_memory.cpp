#include <cuda_runtime_api.h>

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

}  // namespace kopt::worker
