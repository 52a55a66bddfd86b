// out[i] = input[i] * mat2[i], row-major BF16: one thread per element of out, blockIdx.z = i, double
// accumulation of the widened values, one rounding to BF16 (the suite's batched_gemm reference).
#include <cuda_bf16.h>

#include <cstdint>

__global__ void bmm_bf16_kernel(const __nv_bfloat16* input, const __nv_bfloat16* mat2, __nv_bfloat16* out,
                                int64_t n, int64_t m, int64_t p) {
  int64_t const col = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t const row = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  int64_t const i = blockIdx.z;
  if (row >= n || col >= p) return;
  const __nv_bfloat16* a = input + i * n * m;
  const __nv_bfloat16* w = mat2 + i * m * p;
  double sum = 0.0;
  for (int64_t j = 0; j < m; ++j)
    sum += static_cast<double>(__bfloat162float(a[row * m + j])) *
           static_cast<double>(__bfloat162float(w[j * p + col]));
  out[i * n * p + row * p + col] = __double2bfloat16(sum);
}

extern "C" void bmm_bf16(const __nv_bfloat16* input, const __nv_bfloat16* mat2, __nv_bfloat16* out, int64_t b,
                         int64_t n, int64_t m, int64_t p) {
  if (b <= 0 || n <= 0 || p <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid(static_cast<unsigned>((p + 15) / 16), static_cast<unsigned>((n + 15) / 16),
                  static_cast<unsigned>(b));
  bmm_bf16_kernel<<<grid, block>>>(input, mat2, out, n, m, p);
}
