// StyleGAN's PixelNorm in BF16: one thread per (b, pixel) walks the channels twice, the mean of the
// squares in double, then each value times 1/sqrt(mean + 1e-8) rounded once to BF16.
#include <cuda_bf16.h>

__global__ void pixel_norm_kernel(const __nv_bfloat16* x, __nv_bfloat16* y, int batch, int channels,
                                  int num_pixels) {
  long long const column = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (column >= static_cast<long long>(batch) * num_pixels) return;
  long long const b = column / num_pixels;
  long long const p = column % num_pixels;
  const __nv_bfloat16* in = x + b * channels * num_pixels + p;
  __nv_bfloat16* out = y + b * channels * num_pixels + p;
  double squares = 0.0;
  for (int c = 0; c < channels; ++c) {
    double const v = __bfloat162float(in[static_cast<long long>(c) * num_pixels]);
    squares += v * v;
  }
  double const scale = 1.0 / sqrt(squares / channels + 1e-8);
  for (int c = 0; c < channels; ++c) {
    long long const at = static_cast<long long>(c) * num_pixels;
    out[at] = __float2bfloat16_rn(static_cast<float>(__bfloat162float(in[at]) * scale));
  }
}

extern "C" void pixel_norm_bf16(const __nv_bfloat16* x, __nv_bfloat16* y, int batch, int channels,
                                int num_pixels) {
  long long const columns = static_cast<long long>(batch) * num_pixels;
  if (columns <= 0 || channels <= 0) return;
  pixel_norm_kernel<<<static_cast<unsigned>((columns + 127) / 128), 128>>>(x, y, batch, channels, num_pixels);
}
