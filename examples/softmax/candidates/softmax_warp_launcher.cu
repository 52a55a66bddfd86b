// Launcher-mode candidate for examples/softmax: the same warp-per-row online softmax as
// softmax_warp_kernel.cu, launched by its own host function (8 warps per 256-thread block).
// Pass 1 keeps a running (max, sum) per lane and merges lanes with warp shuffles; pass 2 writes
// exp(x - max) / sum. float4 loads when C % 4 == 0 and the buffers are 16-byte aligned.

#include <cuda_runtime.h>

namespace {

constexpr int kWarpsPerBlock = 8;
constexpr unsigned kFullMask = 0xffffffffu;

// Merges the running state (m, s) with (other_m, other_s); safe when either maximum is -inf.
__device__ __forceinline__ void merge(float& m, float& s, float other_m, float other_s) {
  float const merged = fmaxf(m, other_m);
  float const scale = (m == merged) ? 1.0f : expf(m - merged);
  float const other_scale = (other_m == merged) ? 1.0f : expf(other_m - merged);
  s = s * scale + other_s * other_scale;
  m = merged;
}

__device__ __forceinline__ void accumulate4(float& m, float& s, float4 v) {
  float const local = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
  if (local > m) {
    s *= expf(m - local);
    m = local;
  }
  s += expf(v.x - m) + expf(v.y - m) + expf(v.z - m) + expf(v.w - m);
}

__device__ __forceinline__ void accumulate1(float& m, float& s, float x) {
  if (x > m) {
    s = s * expf(m - x) + 1.0f;
    m = x;
  } else {
    s += expf(x - m);
  }
}

__global__ void __launch_bounds__(256)
    softmax_warp_kernel(float* __restrict__ out, const float* __restrict__ in, int N, int C) {
  int const lane = threadIdx.x % 32;
  int const row = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
  if (row >= N) return;  // whole warps leave together: the shuffles below see all 32 lanes
  const float* x = in + static_cast<long long>(row) * C;
  float* y = out + static_cast<long long>(row) * C;
  bool const vectorized =
      C % 4 == 0 &&
      ((reinterpret_cast<unsigned long long>(in) | reinterpret_cast<unsigned long long>(out)) & 15ull) == 0;

  float m = -__int_as_float(0x7f800000);  // -inf
  float s = 0.0f;
  if (vectorized) {
    auto const* x4 = reinterpret_cast<const float4*>(x);
#pragma unroll 4
    for (int j = lane; j < C / 4; j += 32) accumulate4(m, s, x4[j]);
  } else {
    for (int j = lane; j < C; j += 32) accumulate1(m, s, x[j]);
  }
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    float const other_m = __shfl_xor_sync(kFullMask, m, offset);
    float const other_s = __shfl_xor_sync(kFullMask, s, offset);
    merge(m, s, other_m, other_s);
  }

  if (vectorized) {
    auto const* x4 = reinterpret_cast<const float4*>(x);
    auto* y4 = reinterpret_cast<float4*>(y);
#pragma unroll 4
    for (int j = lane; j < C / 4; j += 32) {
      float4 const v = x4[j];
      y4[j] = make_float4(expf(v.x - m) / s, expf(v.y - m) / s, expf(v.z - m) / s, expf(v.w - m) / s);
    }
  } else {
    for (int j = lane; j < C; j += 32) y[j] = expf(x[j] - m) / s;
  }
}

}  // namespace

extern "C" void softmax(float* out, const float* in, int N, int C) {
  if (N <= 0 || C <= 0) return;
  int const grid = (N + kWarpsPerBlock - 1) / kWarpsPerBlock;
  softmax_warp_kernel<<<grid, kWarpsPerBlock * 32>>>(out, in, N, C);
}
