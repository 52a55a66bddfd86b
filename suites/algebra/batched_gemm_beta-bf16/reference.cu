// Reference for batched_gemm_beta-bf16 (kernel in ../batched_gemm-common.cuh): BF16 storage, FP32
// accumulation.
#include "../batched_gemm-common.cuh"

extern "C" void batched_gemm_beta(__nv_bfloat16* C, const __nv_bfloat16* A, const __nv_bfloat16* B, int batch,
                                  int M, int N, int K, float alpha, float beta) {
  batched_gemm_reference(C, A, B, batch, M, N, K, alpha, beta);
}
