// Reference for gemm_nt-bf16 (kernel in ../gemm_nt-common.cuh): BF16 storage, FP32 (here double)
// accumulation.
#include "../gemm_nt-common.cuh"

extern "C" void gemm_nt(__nv_bfloat16* C, const __nv_bfloat16* A, const __nv_bfloat16* B, int M, int N,
                        int K) {
  gemm_nt_reference(C, A, B, M, N, K);
}
