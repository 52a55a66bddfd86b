// Vendor baseline for dot-bf16: cublasDotEx with BF16 vectors and result and FP32 execution
// (CUDA_R_32F), the result written to device memory (CUBLAS_POINTER_MODE_DEVICE).
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"

extern "C" void dot(__nv_bfloat16* result, const __nv_bfloat16* x, const __nv_bfloat16* y, int n) {
  cublasHandle_t const handle = kopt_suite::cublas_handle(CUBLAS_POINTER_MODE_DEVICE);
  if (handle == nullptr) return;
  cublasStatus_t const status =
      cublasDotEx(handle, n, x, CUDA_R_16BF, 1, y, CUDA_R_16BF, 1, result, CUDA_R_16BF, CUDA_R_32F);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasDotEx failed (%d)\n", status);
}
