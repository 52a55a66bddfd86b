// Owning holders for the CUDA handles the worker creates, in the manner of ggml's ggml-cpp.h: a
// std::unique_ptr with one deleter per handle type. Every early return (a candidate that fails halfway,
// a module whose kernel has the wrong signature) then releases what was created, with no hand-written
// destroy on each error path. The deleters never throw and ignore what the release returns: at exit, or
// after a candidate's sticky error, the context may already be gone, and a release then fails harmlessly.
// They do not reset the runtime's last error either, so a candidate's error stays visible to the code
// that reads it.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <type_traits>

#include "worker/gpu/driver_api.hpp"

namespace kopt::worker {

struct CudaEventDeleter {
  void operator()(cudaEvent_t event) const noexcept { (void)cudaEventDestroy(event); }
};
struct CudaStreamDeleter {
  void operator()(cudaStream_t stream) const noexcept { (void)cudaStreamDestroy(stream); }
};
struct CudaGraphDeleter {
  void operator()(cudaGraph_t graph) const noexcept { (void)cudaGraphDestroy(graph); }
};
struct CudaGraphExecDeleter {
  void operator()(cudaGraphExec_t exec) const noexcept { (void)cudaGraphExecDestroy(exec); }
};
// Modules come from the driver API the worker resolves at start (driver_api.hpp).
struct CudaModuleDeleter {
  void operator()(CUmodule module) const noexcept {
    if (driver().module_unload != nullptr) (void)driver().module_unload(module);
  }
};
struct CudaDeviceMemoryDeleter {
  void operator()(void* memory) const noexcept { (void)cudaFree(memory); }
};

// A deleter that could throw would turn a release during stack unwinding into std::terminate.
static_assert(std::is_nothrow_invocable_v<CudaEventDeleter, cudaEvent_t> &&
              std::is_nothrow_invocable_v<CudaStreamDeleter, cudaStream_t> &&
              std::is_nothrow_invocable_v<CudaGraphDeleter, cudaGraph_t> &&
              std::is_nothrow_invocable_v<CudaGraphExecDeleter, cudaGraphExec_t> &&
              std::is_nothrow_invocable_v<CudaModuleDeleter, CUmodule> &&
              std::is_nothrow_invocable_v<CudaDeviceMemoryDeleter, void*>);

using CudaEvent = std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, CudaEventDeleter>;
using CudaStream = std::unique_ptr<std::remove_pointer_t<cudaStream_t>, CudaStreamDeleter>;
using CudaGraph = std::unique_ptr<std::remove_pointer_t<cudaGraph_t>, CudaGraphDeleter>;
using CudaGraphExec = std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, CudaGraphExecDeleter>;
using CudaModule = std::unique_ptr<std::remove_pointer_t<CUmodule>, CudaModuleDeleter>;
template <class T = void>
using DeviceAllocation = std::unique_ptr<T, CudaDeviceMemoryDeleter>;

// A new event (default flags); null when the runtime refuses (its error is left to the caller to read).
inline CudaEvent make_cuda_event() {
  cudaEvent_t event = nullptr;
  if (cudaEventCreate(&event) != cudaSuccess) return CudaEvent();
  return CudaEvent(event);
}

// `bytes` of device memory as T (at least 16, so that an empty buffer still has an address); null when
// cudaMalloc fails, its error cleared: a full device is an answer, not a fault.
template <class T = void>
DeviceAllocation<T> allocate_device(std::size_t bytes) {
  void* memory = nullptr;
  if (cudaMalloc(&memory, bytes == 0 ? 16 : bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    return DeviceAllocation<T>();
  }
  return DeviceAllocation<T>(static_cast<T*>(memory));
}

}  // namespace kopt::worker
