// Training-mode batch norm in BF16: one thread per channel with Welford's update in double (a large
// mean does not cancel the variance), then one thread per element in FP32, one rounding per output.
#include <cuda_bf16.h>

#include <cstdint>

__device__ float2 g_stats[65536];  // (mean, 1/sqrt(var + eps)) per channel, up to 65536 channels

__global__ void bn_train_stats(const __nv_bfloat16* x, __nv_bfloat16* batch_mean, __nv_bfloat16* batch_var,
                               int64_t n, int64_t c, int64_t hw, float eps) {
  int64_t const ch = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (ch >= c) return;
  double mean = 0.0;
  double m2 = 0.0;
  int64_t count = 0;
  for (int64_t b = 0; b < n; ++b) {
    const __nv_bfloat16* plane = x + (b * c + ch) * hw;
    for (int64_t i = 0; i < hw; ++i) {
      double const v = __bfloat162float(plane[i]);
      ++count;
      double const delta = v - mean;
      mean += delta / static_cast<double>(count);
      m2 += delta * (v - mean);
    }
  }
  double const var = count > 0 ? m2 / static_cast<double>(count) : 0.0;
  batch_mean[ch] = __float2bfloat16(static_cast<float>(mean));
  batch_var[ch] = __float2bfloat16(static_cast<float>(var));
  g_stats[ch] = make_float2(static_cast<float>(mean), static_cast<float>(1.0 / sqrt(var + eps)));
}

__global__ void bn_train_apply(const __nv_bfloat16* x, const __nv_bfloat16* scale, const __nv_bfloat16* shift,
                               __nv_bfloat16* y, int64_t total, int64_t c, int64_t hw) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  int64_t const ch = (i / hw) % c;
  float2 const s = g_stats[ch];
  y[i] = __float2bfloat16((__bfloat162float(x[i]) - s.x) * s.y * __bfloat162float(scale[ch]) +
                          __bfloat162float(shift[ch]));
}

extern "C" void bn_train_fwd_bf16(const __nv_bfloat16* x, const __nv_bfloat16* scale,
                                  const __nv_bfloat16* shift, __nv_bfloat16* y, __nv_bfloat16* batch_mean,
                                  __nv_bfloat16* batch_var, int64_t n, int64_t c, int64_t h, int64_t w,
                                  float eps) {
  int64_t const hw = h * w;
  bn_train_stats<<<static_cast<unsigned>((c + 63) / 64), 64>>>(x, batch_mean, batch_var, n, c, hw, eps);
  int64_t const total = n * c * hw;
  bn_train_apply<<<static_cast<unsigned>((total + 255) / 256), 256>>>(x, scale, shift, y, total, c, hw);
}
