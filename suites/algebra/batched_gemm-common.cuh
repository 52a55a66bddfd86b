// Shared by batched_gemm-f32 and batched_gemm-bf16: C[b] = A[b] * B[b] for b < batch, every matrix
// row-major and the batch packed contiguously (A[b] starts at b*M*K, B[b] at b*K*N, C[b] at b*M*N).
// One thread per element of C in 16 x 16 blocks, blockIdx.z = b, each running the whole K loop out of
// global memory. FP32 accumulation is the contract; the reference accumulates in double (the product of
// two floats is exact in double) so that it is the accurate side of every comparison, and rounds once
// to the output type. Naive on purpose but obviously correct.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void batched_gemm_reference_kernel(T* C, const T* A, const T* B, int M, int N, int K, float alpha,
                                              float beta) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  long long const b = blockIdx.z;
  if (row >= M || col >= N) return;
  const T* a = A + b * M * K;
  const T* bm = B + b * K * N;
  double sum = 0.0;
  for (int k = 0; k < K; ++k)
    sum += static_cast<double>(static_cast<float>(a[static_cast<long long>(row) * K + k])) *
           static_cast<double>(static_cast<float>(bm[static_cast<long long>(k) * N + col]));
  T* c = C + b * M * N + static_cast<long long>(row) * N + col;
  double value = static_cast<double>(alpha) * sum;
  if (beta != 0.0f) value += static_cast<double>(beta) * static_cast<double>(static_cast<float>(*c));
  *c = static_cast<T>(value);
}

// alpha: batched_gemm_scaled-* (C[b] = alpha * A[b] B[b]); 1 for batched_gemm-*. beta: batched_gemm_beta-*
// (C[b] = alpha * A[b] B[b] + beta * C[b], C read only where beta != 0, as BLAS does); 0 elsewhere.
template <typename T>
void batched_gemm_reference(T* C, const T* A, const T* B, int batch, int M, int N, int K, float alpha = 1.0f,
                            float beta = 0.0f) {
  if (batch <= 0 || M <= 0 || N <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y, batch);
  batched_gemm_reference_kernel<T><<<grid, block>>>(C, A, B, M, N, K, alpha, beta);
}
