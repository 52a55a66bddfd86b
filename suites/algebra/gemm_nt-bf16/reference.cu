// Reference for gemm_nt-bf16 (the kernel of ../gemm-common.cuh with B read as N x K): BF16 storage, FP32
// (here double) accumulation.
#include "../gemm-common.cuh"

extern "C" void gemm_nt(__nv_bfloat16* C, const __nv_bfloat16* A, const __nv_bfloat16* B, int M, int N,
                        int K) {
  gemm_reference<__nv_bfloat16, true>(C, A, B, M, N, K);
}
