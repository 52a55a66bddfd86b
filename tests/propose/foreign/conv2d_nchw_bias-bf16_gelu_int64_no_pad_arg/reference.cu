// One thread per output: the valid window summed in FP32, the bias, the exact GELU, one rounding to BF16.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void conv2d_bias_gelu_kernel(__nv_bfloat16* out, const __nv_bfloat16* in,
                                        const __nv_bfloat16* filt, const __nv_bfloat16* b, int64_t N,
                                        int64_t C, int64_t K, int64_t H, int64_t W, int64_t R) {
  int64_t const P = H - R + 1;
  int64_t const Q = W - R + 1;
  int64_t const index = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= N * K * P * Q) return;
  int64_t const q = index % Q;
  int64_t const p = index / Q % P;
  int64_t const k = index / (P * Q) % K;
  int64_t const n = index / (P * Q * K);
  float v = __bfloat162float(b[k]);
  for (int64_t c = 0; c < C; ++c) {
    for (int64_t r = 0; r < R; ++r) {
      for (int64_t s = 0; s < R; ++s) {
        v += __bfloat162float(in[((n * C + c) * H + p + r) * W + q + s]) *
             __bfloat162float(filt[((k * C + c) * R + r) * R + s]);
      }
    }
  }
  out[index] = __float2bfloat16_rn(0.5f * v * (1.0f + erff(v * 0.70710678f)));
}

extern "C" void conv2d_bias_gelu_bf16(__nv_bfloat16* out, const __nv_bfloat16* in, const __nv_bfloat16* filt,
                                      const __nv_bfloat16* b, int64_t N, int64_t C, int64_t K, int64_t H,
                                      int64_t W, int64_t R) {
  int64_t const total = N * K * (H - R + 1) * (W - R + 1);
  if (total <= 0) return;
  conv2d_bias_gelu_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(out, in, filt, b, N, C, K, H,
                                                                               W, R);
}
