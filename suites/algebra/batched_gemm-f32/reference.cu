// Reference for batched_gemm-f32 (kernel in ../batched_gemm-common.cuh).
#include "../batched_gemm-common.cuh"

extern "C" void batched_gemm(float* C, const float* A, const float* B, int batch, int M, int N, int K) {
  batched_gemm_reference(C, A, B, batch, M, N, K);
}
