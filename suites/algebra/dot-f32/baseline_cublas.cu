// Vendor baseline for dot-f32: cublasSdot with the result written to device memory
// (CUBLAS_POINTER_MODE_DEVICE), so the call stays asynchronous.
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"

extern "C" void dot(float* result, const float* x, const float* y, int n) {
  cublasHandle_t const handle = kopt_suite::cublas_handle(CUBLAS_POINTER_MODE_DEVICE);
  if (handle == nullptr) return;
  cublasStatus_t const status = cublasSdot(handle, n, x, 1, y, 1, result);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSdot failed (%d)\n", status);
}
