// A BF16 GroupNorm in two kernels: one thread per (batch, group) slab computes the slab's mean and
// 1/sqrt(biased variance + eps) with Welford's update in double, then one thread per element applies them
// with its channel's weight and bias in FP32, one rounding per output.
#include <cuda_bf16.h>

__device__ float2 g_slab_stats[1 << 16];  // (mean, rstd) per slab, up to 65536 slabs

__global__ void group_norm_stats_bf16(const __nv_bfloat16* x, int slabs, long long slab_size, float eps) {
  int const slab = blockIdx.x * blockDim.x + threadIdx.x;
  if (slab >= slabs) return;
  const __nv_bfloat16* in = x + slab * slab_size;
  double mean = 0.0;
  double m2 = 0.0;
  for (long long i = 0; i < slab_size; ++i) {
    double const v = __bfloat162float(in[i]);
    double const delta = v - mean;
    mean += delta / static_cast<double>(i + 1);
    m2 += delta * (v - mean);
  }
  double const rstd = 1.0 / sqrt(m2 / static_cast<double>(slab_size) + static_cast<double>(eps));
  g_slab_stats[slab] = make_float2(static_cast<float>(mean), static_cast<float>(rstd));
}

__global__ void group_norm_apply_bf16(const __nv_bfloat16* x, __nv_bfloat16* y, const __nv_bfloat16* weight,
                                      const __nv_bfloat16* bias, int channels, int channels_per_group, int hw,
                                      long long total) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  long long const plane = i / hw;  // b * channels + c
  int const c = static_cast<int>(plane % channels);
  long long const slab = plane / channels_per_group;  // b * num_groups + c / channels_per_group
  float2 const s = g_slab_stats[slab];
  y[i] = __float2bfloat16_rn((__bfloat162float(x[i]) - s.x) * s.y * __bfloat162float(weight[c]) +
                             __bfloat162float(bias[c]));
}

extern "C" void group_norm_nchw_bf16(const __nv_bfloat16* x, __nv_bfloat16* y, const __nv_bfloat16* weight,
                                     const __nv_bfloat16* bias, int num_groups, int batch, int channels,
                                     int hw, float eps) {
  if (num_groups <= 0 || batch <= 0 || hw <= 0 || channels % num_groups != 0) return;
  int const channels_per_group = channels / num_groups;
  int const slabs = batch * num_groups;
  if (slabs > (1 << 16)) return;
  group_norm_stats_bf16<<<(slabs + 63) / 64, 64>>>(x, slabs, static_cast<long long>(channels_per_group) * hw,
                                                   eps);
  long long const total = static_cast<long long>(batch) * channels * hw;
  group_norm_apply_bf16<<<static_cast<unsigned>((total + 255) / 256), 256>>>(x, y, weight, bias, channels,
                                                                             channels_per_group, hw, total);
}
