// self[i] = beta * self[i] + alpha * batch1[i] * batch2[i], row-major BF16: one thread per element of self,
// blockIdx.z = i, double accumulation of the widened values, one rounding to BF16.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void baddbmm_inplace_bf16_kernel(__nv_bfloat16* self, const __nv_bfloat16* batch1,
                                            const __nv_bfloat16* batch2, float beta, float alpha, int64_t n,
                                            int64_t m, int64_t p) {
  int64_t const col = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t const row = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  int64_t const i = blockIdx.z;
  if (row >= n || col >= p) return;
  const __nv_bfloat16* a = batch1 + i * n * m;
  const __nv_bfloat16* w = batch2 + i * m * p;
  double sum = 0.0;
  for (int64_t j = 0; j < m; ++j)
    sum += static_cast<double>(__bfloat162float(a[row * m + j])) *
           static_cast<double>(__bfloat162float(w[j * p + col]));
  __nv_bfloat16* out = self + i * n * p + row * p + col;
  *out = __double2bfloat16(static_cast<double>(beta) * __bfloat162float(*out) +
                           static_cast<double>(alpha) * sum);
}

extern "C" void baddbmm_inplace_bf16(__nv_bfloat16* self, const __nv_bfloat16* batch1,
                                     const __nv_bfloat16* batch2, float beta, float alpha, int64_t b,
                                     int64_t n, int64_t m, int64_t p) {
  if (b <= 0 || n <= 0 || p <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid(static_cast<unsigned>((p + 15) / 16), static_cast<unsigned>((n + 15) / 16),
                  static_cast<unsigned>(b));
  baddbmm_inplace_bf16_kernel<<<grid, block>>>(self, batch1, batch2, beta, alpha, n, m, p);
}
