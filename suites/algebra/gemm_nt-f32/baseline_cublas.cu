// Vendor baseline for gemm_nt-f32: cublasSgemm in FP32 (CUBLAS_DEFAULT_MATH: no TF32).
// cuBLAS is column-major: the row-major M x N C is the column-major N x M C^T = B * A^T, where the row-major
// N x K B is the column-major K x N matrix transposed (CUBLAS_OP_T) and the row-major M x K A is the
// column-major K x M A^T (CUBLAS_OP_N). The handle is created once and bound to the per-thread default
// stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"

extern "C" void gemm_nt(float* C, const float* A, const float* B, int M, int N, int K) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || M <= 0 || N <= 0) return;
  float const alpha = 1.0f;
  float const beta = 0.0f;
  cublasStatus_t const status =
      cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, N, M, K, &alpha, B, K, A, K, &beta, C, N);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSgemm failed (%d)\n", status);
}
