// C[i] = alpha * A[i] * B[i], column-major BF16: one thread per element of C, blockIdx.z = i, double
// accumulation of the widened products, one rounding.
#include <cuda_bf16.h>

__global__ void gemm_strided_batched_kernel(int m, int n, int k, float alpha, const __nv_bfloat16* A,
                                            const __nv_bfloat16* B, __nv_bfloat16* C) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  int const c = blockIdx.y * blockDim.y + threadIdx.y;
  long long const i = blockIdx.z;
  if (r >= m || c >= n) return;
  const __nv_bfloat16* a = A + i * m * k;
  const __nv_bfloat16* b = B + i * k * n;
  double sum = 0.0;
  for (int p = 0; p < k; ++p)
    sum += static_cast<double>(__bfloat162float(a[r + static_cast<long long>(p) * m])) *
           static_cast<double>(__bfloat162float(b[p + static_cast<long long>(c) * k]));
  C[i * m * n + r + static_cast<long long>(c) * m] = __float2bfloat16_rn(static_cast<float>(alpha * sum));
}

extern "C" void gemm_strided_batched_bf16(int m, int n, int k, float alpha, const __nv_bfloat16* A,
                                          const __nv_bfloat16* B, __nv_bfloat16* C, int batch_count) {
  if (m <= 0 || n <= 0 || batch_count <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid((m + 15) / 16, (n + 15) / 16, batch_count);
  gemm_strided_batched_kernel<<<grid, block>>>(m, n, k, alpha, A, B, C);
}
