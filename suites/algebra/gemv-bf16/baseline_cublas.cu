// Vendor baseline for gemv-bf16: cublasGemmEx with n = 1, BF16 data, FP32 compute
// (CUBLAS_COMPUTE_32F). The row-major M x N matrix A is the column-major N x M matrix A^T (leading
// dimension N), so y (M x 1) = op(A^T)^T x is a TN GEMM with m = M, n = 1, k = N.
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"

extern "C" void gemv(__nv_bfloat16* y, const __nv_bfloat16* A, const __nv_bfloat16* x, int M, int N) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || M <= 0) return;
  float const alpha = 1.0f;
  float const beta = 0.0f;
  cublasStatus_t const status =
      cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, M, 1, N, &alpha, A, CUDA_R_16BF, N, x, CUDA_R_16BF, N,
                   &beta, y, CUDA_R_16BF, M, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasGemmEx failed (%d)\n", status);
}
