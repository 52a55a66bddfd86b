// A LayerNorm without affine parameters in BF16: one warp per token, the mean and the biased variance in
// double (two passes over the row, warp-shuffle sums), then each output computed in double and rounded
// once to BF16.
#include <cuda_bf16.h>

#include <cstddef>

constexpr unsigned kFullMask = 0xffffffffu;

__device__ double warp_sum(double value) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(kFullMask, value, offset);
  return value;
}

__global__ void layer_norm_no_affine_kernel(const __nv_bfloat16* x, size_t num_tokens, size_t hidden_size,
                                            float epsilon, __nv_bfloat16* y) {
  size_t const row = (static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  unsigned const lane = threadIdx.x % 32;
  if (row >= num_tokens) return;  // the same for the whole warp
  const __nv_bfloat16* in = x + row * hidden_size;
  __nv_bfloat16* out = y + row * hidden_size;
  double sum = 0.0;
  for (size_t j = lane; j < hidden_size; j += 32) sum += __bfloat162float(in[j]);
  double const mean = warp_sum(sum) / static_cast<double>(hidden_size);
  double squares = 0.0;
  for (size_t j = lane; j < hidden_size; j += 32) {
    double const d = __bfloat162float(in[j]) - mean;
    squares += d * d;
  }
  double const var = warp_sum(squares) / static_cast<double>(hidden_size);
  double const rstd = 1.0 / sqrt(var + static_cast<double>(epsilon));
  for (size_t j = lane; j < hidden_size; j += 32) {
    out[j] = __float2bfloat16_rn(static_cast<float>((__bfloat162float(in[j]) - mean) * rstd));
  }
}

extern "C" void layer_norm_no_affine_bf16(const __nv_bfloat16* x, size_t num_tokens, size_t hidden_size,
                                          float epsilon, __nv_bfloat16* y) {
  if (num_tokens == 0 || hidden_size == 0) return;
  size_t const warps_per_block = 4;
  size_t const blocks = (num_tokens + warps_per_block - 1) / warps_per_block;
  layer_norm_no_affine_kernel<<<static_cast<unsigned>(blocks), 32 * warps_per_block>>>(
      x, num_tokens, hidden_size, epsilon, y);
}
