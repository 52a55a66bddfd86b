// Vendor baseline for batched_gemm-f32: cublasSgemmStridedBatched in FP32 (../batched_gemm-cublas.cuh).
#include "../batched_gemm-cublas.cuh"

extern "C" void batched_gemm(float* C, const float* A, const float* B, int batch, int M, int N, int K) {
  kopt_suite::batched_gemm_cublas(C, A, B, batch, M, N, K, 1.0f);
}
