// Vendor baseline for batched_gemm_beta-f32: cublasSgemmStridedBatched in FP32 with the task's alpha and beta
// (../batched_gemm-cublas.cuh).
#include "../batched_gemm-cublas.cuh"

extern "C" void batched_gemm_beta(float* C, const float* A, const float* B, int batch, int M, int N, int K,
                                  float alpha, float beta) {
  kopt_suite::batched_gemm_cublas(C, A, B, batch, M, N, K, alpha, beta);
}
