// Vendor baseline for batched_gemm_scaled-f32: cublasSgemmStridedBatched in FP32 (CUBLAS_DEFAULT_MATH: no
// TF32), strides M*K, K*N and M*N between the packed matrices.
// cuBLAS is column-major; a row-major M x N matrix is the column-major N x M transpose, so
// C^T = B^T * A^T is computed with the operands swapped and no transposition flags.
// The handle is created once and bound to the per-thread default stream kopt times on.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "../cublas-handle.cuh"

extern "C" void batched_gemm_scaled(float* C, const float* A, const float* B, int batch, int M, int N, int K,
                                    float alpha) {
  cublasHandle_t const handle = kopt_suite::cublas_handle();
  if (handle == nullptr || batch <= 0 || M <= 0 || N <= 0) return;
  float const beta = 0.0f;
  long long const stride_a = static_cast<long long>(M) * K;
  long long const stride_b = static_cast<long long>(K) * N;
  long long const stride_c = static_cast<long long>(M) * N;
  cublasStatus_t const status =
      cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, stride_b, A, K,
                                stride_a, &beta, C, N, stride_c, batch);
  if (status != CUBLAS_STATUS_SUCCESS)
    std::fprintf(stderr, "baseline_cublas.cu: cublasSgemmStridedBatched failed (%d)\n", status);
}
