// out[i] = beta * input[i] + alpha * batch1[i] * batch2[i], row-major FP32: one thread per element of out,
// blockIdx.z = i, double accumulation, one rounding.
#include <cstdint>

__global__ void baddbmm_out_kernel(float* out, const float* input, const float* batch1, const float* batch2,
                                   int64_t n, int64_t m, int64_t p, float beta, float alpha) {
  int64_t const col = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t const row = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  int64_t const i = blockIdx.z;
  if (row >= n || col >= p) return;
  const float* a = batch1 + i * n * m;
  const float* w = batch2 + i * m * p;
  double sum = 0.0;
  for (int64_t j = 0; j < m; ++j)
    sum += static_cast<double>(a[row * m + j]) * static_cast<double>(w[j * p + col]);
  int64_t const o = i * n * p + row * p + col;
  out[o] = static_cast<float>(static_cast<double>(beta) * input[o] + static_cast<double>(alpha) * sum);
}

extern "C" void baddbmm_out(float* out, const float* input, const float* batch1, const float* batch2,
                            int64_t b, int64_t n, int64_t m, int64_t p, float beta, float alpha) {
  if (b <= 0 || n <= 0 || p <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid(static_cast<unsigned>((p + 15) / 16), static_cast<unsigned>((n + 15) / 16),
                  static_cast<unsigned>(b));
  baddbmm_out_kernel<<<grid, block>>>(out, input, batch1, batch2, n, m, p, beta, alpha);
}
