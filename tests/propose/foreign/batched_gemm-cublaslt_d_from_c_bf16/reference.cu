// D[i] = alpha * A[i] * B[i] + beta * C[i], row-major BF16: one thread per element of D, blockIdx.z = i,
// double accumulation of the widened values, one rounding to BF16.
#include <cuda_bf16.h>

__global__ void lt_matmul_batched_bf16_kernel(__nv_bfloat16* D, const __nv_bfloat16* A,
                                              const __nv_bfloat16* B, const __nv_bfloat16* C, int M, int N,
                                              int K, float alpha, float beta) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  long long const i = blockIdx.z;
  if (row >= M || col >= N) return;
  const __nv_bfloat16* a = A + i * M * K;
  const __nv_bfloat16* b = B + i * K * N;
  double sum = 0.0;
  for (int k = 0; k < K; ++k)
    sum += static_cast<double>(__bfloat162float(a[static_cast<long long>(row) * K + k])) *
           static_cast<double>(__bfloat162float(b[static_cast<long long>(k) * N + col]));
  long long const o = i * M * N + static_cast<long long>(row) * N + col;
  D[o] = __double2bfloat16(static_cast<double>(alpha) * sum +
                           static_cast<double>(beta) * static_cast<double>(__bfloat162float(C[o])));
}

extern "C" void lt_matmul_batched_bf16(__nv_bfloat16* D, const __nv_bfloat16* A, const __nv_bfloat16* B,
                                       const __nv_bfloat16* C, int batch, int M, int N, int K, float alpha,
                                       float beta) {
  if (batch <= 0 || M <= 0 || N <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((N + 15) / 16, (M + 15) / 16, batch);
  lt_matmul_batched_bf16_kernel<<<grid, block>>>(D, A, B, C, M, N, K, alpha, beta);
}
