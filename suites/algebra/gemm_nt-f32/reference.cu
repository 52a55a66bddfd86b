// Reference for gemm_nt-f32 (the kernel of ../gemm-common.cuh with B read as N x K): FP32 storage, double
// accumulation.
#include "../gemm-common.cuh"

extern "C" void gemm_nt(float* C, const float* A, const float* B, int M, int N, int K) {
  gemm_reference<float, true>(C, A, B, M, N, K);
}
