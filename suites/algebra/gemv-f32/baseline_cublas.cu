// Vendor baseline for gemv-f32: cublasSgemv in FP32. cuBLAS is column-major: the row-major M x N
// matrix A is the column-major N x M matrix A^T (leading dimension N), so y = A x is
// cublasSgemv(CUBLAS_OP_T) on that N x M matrix.
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"

extern "C" void gemv(float* y, const float* A, const float* x, int M, int N) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || M <= 0) return;
  float const alpha = 1.0f;
  float const beta = 0.0f;
  cublasStatus_t const status = cublasSgemv(handle, CUBLAS_OP_T, N, M, &alpha, A, N, x, 1, &beta, y, 1);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSgemv failed (%d)\n", status);
}
