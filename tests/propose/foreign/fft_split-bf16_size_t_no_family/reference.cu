// One thread per output bin: FP32 twiddles from the exact index j*k mod length, FP32 accumulation, one
// rounding to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void spectrum_bf16_kernel(const __nv_bfloat16* real, const __nv_bfloat16* imag,
                                     __nv_bfloat16* real_out, __nv_bfloat16* imag_out, size_t length,
                                     size_t count) {
  size_t const o = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= length * count) return;
  size_t const s = o / length;
  size_t const k = o % length;
  const __nv_bfloat16* re = real + s * length;
  const __nv_bfloat16* im = imag + s * length;
  float acc_re = 0.0f;
  float acc_im = 0.0f;
  for (size_t j = 0; j < length; ++j) {
    float sn = 0.0f;
    float cs = 0.0f;
    sincospif(-2.0f * static_cast<float>((j * k) % length) / static_cast<float>(length), &sn, &cs);
    float const a = __bfloat162float(re[j]);
    float const b = __bfloat162float(im[j]);
    acc_re += a * cs - b * sn;
    acc_im += a * sn + b * cs;
  }
  real_out[o] = __float2bfloat16_rn(acc_re);
  imag_out[o] = __float2bfloat16_rn(acc_im);
}

extern "C" void spectrum_bf16(const __nv_bfloat16* real, const __nv_bfloat16* imag, __nv_bfloat16* real_out,
                              __nv_bfloat16* imag_out, size_t length, size_t count) {
  size_t const total = length * count;
  if (total == 0) return;
  spectrum_bf16_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(real, imag, real_out, imag_out,
                                                                            length, count);
}
