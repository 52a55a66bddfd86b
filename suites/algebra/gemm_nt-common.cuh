// Shared by gemm_nt-f32 and gemm_nt-bf16: C = A * B^T with row-major A (M x K), B (N x K) and C (M x N)
// (`a @ b.T`; nn.Linear without a bias, B being its weight). One thread per element of C in 16 x 16 blocks,
// each running the whole K loop out of global memory (no tiling, no shared memory), the sum in double (the
// product of two floats is exact in double) and one rounding to the output type. Naive on purpose but
// obviously correct.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void gemm_nt_reference_kernel(T* C, const T* A, const T* B, int M, int N, int K) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= N) return;
  double sum = 0.0;
  for (int k = 0; k < K; ++k)
    sum += static_cast<double>(static_cast<float>(A[static_cast<long long>(row) * K + k])) *
           static_cast<double>(static_cast<float>(B[static_cast<long long>(col) * K + k]));
  C[static_cast<long long>(row) * N + col] = static_cast<T>(sum);
}

template <typename T>
void gemm_nt_reference(T* C, const T* A, const T* B, int M, int N, int K) {
  if (M <= 0 || N <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  gemm_nt_reference_kernel<T><<<grid, block>>>(C, A, B, M, N, K);
}
