// C = A * B, row-major BF16: one thread per element of C, double accumulation of the widened values,
// one rounding to BF16 (the suite's gemm reference).
#include <cuda_bf16.h>

__global__ void gemm_bf16_kernel(int m, int k, int n, const __nv_bfloat16* A, const __nv_bfloat16* B,
                                 __nv_bfloat16* C) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= m || col >= n) return;
  double sum = 0.0;
  for (int p = 0; p < k; ++p)
    sum += static_cast<double>(__bfloat162float(A[static_cast<long long>(row) * k + p])) *
           static_cast<double>(__bfloat162float(B[static_cast<long long>(p) * n + col]));
  C[static_cast<long long>(row) * n + col] = __double2bfloat16(sum);
}

extern "C" void gemm_bf16(int m, int k, int n, const __nv_bfloat16* A, const __nv_bfloat16* B,
                          __nv_bfloat16* C) {
  if (m <= 0 || n <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((n + 15) / 16, (m + 15) / 16);
  gemm_bf16_kernel<<<grid, block>>>(m, k, n, A, B, C);
}
