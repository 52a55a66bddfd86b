// Reference for gemm_nt-f32 (kernel in ../gemm_nt-common.cuh): FP32 storage, double accumulation.
#include "../gemm_nt-common.cuh"

extern "C" void gemm_nt(float* C, const float* A, const float* B, int M, int N, int K) {
  gemm_nt_reference(C, A, B, M, N, K);
}
