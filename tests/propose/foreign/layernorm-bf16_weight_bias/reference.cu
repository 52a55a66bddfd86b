// LayerNorm with eps = 1e-5 (the suite's layernorm reference): one thread per row, two-pass mean and
// biased variance and the outputs in double, each output rounded once to BF16.
#include <cuda_bf16.h>

__device__ __forceinline__ double widen(__nv_bfloat16 v) {
  return static_cast<double>(__bfloat162float(v));
}

__global__ void ln_fwd_bf16_kernel(__nv_bfloat16* y, const __nv_bfloat16* x, const __nv_bfloat16* weight,
                                   const __nv_bfloat16* bias, int rows, int cols) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  double const eps = 1e-5;
  const __nv_bfloat16* in = x + static_cast<long long>(row) * cols;
  __nv_bfloat16* out = y + static_cast<long long>(row) * cols;
  double sum = 0.0;
  for (int j = 0; j < cols; ++j) sum += widen(in[j]);
  double const mean = sum / cols;
  double squares = 0.0;
  for (int j = 0; j < cols; ++j) {
    double const d = widen(in[j]) - mean;
    squares += d * d;
  }
  double const rstd = 1.0 / sqrt(squares / cols + eps);
  for (int j = 0; j < cols; ++j)
    out[j] = __double2bfloat16((widen(in[j]) - mean) * rstd * widen(weight[j]) + widen(bias[j]));
}

extern "C" void ln_fwd_bf16(__nv_bfloat16* y, const __nv_bfloat16* x, const __nv_bfloat16* weight,
                            const __nv_bfloat16* bias, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  ln_fwd_bf16_kernel<<<(rows + 31) / 32, 32>>>(y, x, weight, bias, rows, cols);
}
