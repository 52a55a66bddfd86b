// Normalised inverse DFT on planar BF16 data: one thread per output, exact twiddle indices, FP32 twiddles,
// double sums divided by n, one rounding per output.
#include <cuda_bf16.h>

__global__ void ifft_planar_bf16_kernel(const __nv_bfloat16* re_in, const __nv_bfloat16* im_in,
                                        __nv_bfloat16* re_out, __nv_bfloat16* im_out, int batch, int n) {
  long long const o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= static_cast<long long>(n) * batch) return;
  long long const b = o / n;
  int const j = static_cast<int>(o % n);
  double re = 0.0;
  double im = 0.0;
  int m = 0;  // j*k mod n
  for (int k = 0; k < n; ++k) {
    float s = 0.0f;
    float c = 0.0f;
    sincospif(2.0f * static_cast<float>(m) / static_cast<float>(n), &s, &c);
    double const xr = __bfloat162float(re_in[b * n + k]);
    double const xi = __bfloat162float(im_in[b * n + k]);
    re += xr * c - xi * s;
    im += xr * s + xi * c;
    m += j;
    if (m >= n) m -= n;
  }
  re_out[o] = __float2bfloat16_rn(static_cast<float>(re / n));
  im_out[o] = __float2bfloat16_rn(static_cast<float>(im / n));
}

extern "C" void ifft_planar_bf16(const __nv_bfloat16* re_in, const __nv_bfloat16* im_in,
                                 __nv_bfloat16* re_out, __nv_bfloat16* im_out, int batch, int n) {
  long long const outputs = static_cast<long long>(n) * batch;
  if (outputs <= 0) return;
  ifft_planar_bf16_kernel<<<static_cast<unsigned>((outputs + 255) / 256), 256>>>(re_in, im_in, re_out, im_out,
                                                                                 batch, n);
}
