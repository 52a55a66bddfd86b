// Vendor baselines of batched_gemm-{f32,bf16}, batched_gemm_scaled-{f32,bf16} and
// batched_gemm_beta-{f32,bf16}: C[b] = alpha * A[b] B[b] + beta * C[b] with cuBLAS's strided batched GEMM
// (beta = 0 except in the _beta tasks), strides M*K, K*N and M*N between the packed matrices. FP32:
// cublasSgemmStridedBatched (CUBLAS_DEFAULT_MATH: no TF32). BF16: cublasGemmStridedBatchedEx with BF16 A, B
// and C and FP32 accumulation (CUBLAS_COMPUTE_32F). cuBLAS is column-major; a row-major M x N matrix is the
// column-major N x M transpose, so C^T = B^T * A^T is computed with the operands swapped and no transposition
// flags. The handle is created once and bound to the per-thread default stream kopt times on.
#pragma once
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "cublas-handle.cuh"

namespace kopt_suite {

inline void batched_gemm_cublas(float* C, const float* A, const float* B, int batch, int M, int N, int K,
                                float alpha, float beta = 0.0f) {
  cublasHandle_t const handle = cublas_handle();
  if (handle == nullptr || batch <= 0 || M <= 0 || N <= 0) return;
  long long const stride_a = static_cast<long long>(M) * K;
  long long const stride_b = static_cast<long long>(K) * N;
  long long const stride_c = static_cast<long long>(M) * N;
  cublasStatus_t const status =
      cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, stride_b, A, K,
                                stride_a, &beta, C, N, stride_c, batch);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSgemmStridedBatched failed (%d)\n", status);
}

inline void batched_gemm_cublas(__nv_bfloat16* C, const __nv_bfloat16* A, const __nv_bfloat16* B, int batch,
                                int M, int N, int K, float alpha, float beta = 0.0f) {
  cublasHandle_t const handle = cublas_handle();
  if (handle == nullptr || batch <= 0 || M <= 0 || N <= 0) return;
  long long const stride_a = static_cast<long long>(M) * K;
  long long const stride_b = static_cast<long long>(K) * N;
  long long const stride_c = static_cast<long long>(M) * N;
  cublasStatus_t const status = cublasGemmStridedBatchedEx(
      handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, CUDA_R_16BF, N, stride_b, A, CUDA_R_16BF, K,
      stride_a, &beta, C, CUDA_R_16BF, N, stride_c, batch, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasGemmStridedBatchedEx failed (%d)\n", status);
}

}  // namespace kopt_suite
