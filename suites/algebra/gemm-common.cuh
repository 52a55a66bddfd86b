// Shared by gemm-f32 and gemm-bf16: square-style GEMM C = A * B, row-major A (M x K), B (K x N), C (M x N).
// One thread per element of C in 16 x 16 blocks, each running the whole K loop out of global memory (no
// tiling, no shared memory). FP32 accumulation is the contract; the reference accumulates in double (the
// product of two floats is exact in double) so that it stays the accurate side of every comparison, and
// rounds once to the output type. Naive on purpose but obviously correct.
// gemm_nt-f32 and gemm_nt-bf16 (C = A * B^T, B row-major N x K) use the same kernel with BTransposed.
#pragma once
#include <cuda_bf16.h>

template <typename T, bool BTransposed = false>
__global__ void gemm_reference_kernel(T* C, const T* A, const T* B, int M, int N, int K) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  double sum = 0.0;
  for (int k = 0; k < K; ++k)
    sum += static_cast<double>(static_cast<float>(A[static_cast<long long>(row) * K + k])) *
           static_cast<double>(static_cast<float>(BTransposed ? B[static_cast<long long>(col) * K + k]
                                                              : B[static_cast<long long>(k) * N + col]));
  C[static_cast<long long>(row) * N + col] = static_cast<T>(sum);
}

template <typename T, bool BTransposed = false>
void gemm_reference(T* C, const T* A, const T* B, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  gemm_reference_kernel<T, BTransposed><<<grid, block>>>(C, A, B, M, N, K);
}
