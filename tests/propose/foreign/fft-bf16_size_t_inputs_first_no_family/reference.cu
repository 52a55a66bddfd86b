// One thread per output bin: FP32 twiddles from the exact index j*k mod points, FP32 sums, one rounding
// to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void dft_bf16_kernel(const __nv_bfloat16* signal, __nv_bfloat16* spectrum, size_t points,
                                size_t signals) {
  size_t const o = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= points * signals) return;
  size_t const s = o / points;
  size_t const k = o % points;
  const __nv_bfloat16* x = signal + 2 * s * points;
  float re = 0.0f;
  float im = 0.0f;
  for (size_t j = 0; j < points; ++j) {
    float sn = 0.0f;
    float cs = 0.0f;
    sincospif(-2.0f * static_cast<float>((j * k) % points) / static_cast<float>(points), &sn, &cs);
    float const a = __bfloat162float(x[2 * j]);
    float const b = __bfloat162float(x[2 * j + 1]);
    re += a * cs - b * sn;
    im += a * sn + b * cs;
  }
  spectrum[2 * o] = __float2bfloat16_rn(re);
  spectrum[2 * o + 1] = __float2bfloat16_rn(im);
}

extern "C" void dft_bf16(const __nv_bfloat16* signal, __nv_bfloat16* spectrum, size_t points,
                         size_t signals) {
  size_t const total = points * signals;
  if (total == 0) return;
  dft_bf16_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(signal, spectrum, points, signals);
}
