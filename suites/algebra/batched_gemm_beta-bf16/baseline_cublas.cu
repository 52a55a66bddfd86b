// Vendor baseline for batched_gemm_beta-bf16: cublasGemmStridedBatchedEx, BF16 with FP32 accumulation,
// with the task's alpha and beta (../batched_gemm-cublas.cuh).
#include "../batched_gemm-cublas.cuh"

extern "C" void batched_gemm_beta(__nv_bfloat16* C, const __nv_bfloat16* A, const __nv_bfloat16* B, int batch,
                                  int M, int N, int K, float alpha, float beta) {
  kopt_suite::batched_gemm_cublas(C, A, B, batch, M, N, K, alpha, beta);
}
