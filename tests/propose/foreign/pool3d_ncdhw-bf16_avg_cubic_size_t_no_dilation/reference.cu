// F.avg_pool3d with count_include_pad in BF16 (floor mode): one thread per output sums its window's taps
// inside the input in FP32 (the zero padding adds nothing) and divides by the whole window,
// kernel_size^3, one rounding per output.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void avg_pool3d_bf16_kernel(const __nv_bfloat16* in, __nv_bfloat16* out, size_t d, size_t h,
                                       size_t w, size_t out_d, size_t out_h, size_t out_w, size_t kernel_size,
                                       size_t stride, size_t padding, size_t total) {
  size_t const index = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= total) return;
  size_t const ox = index % out_w;
  size_t const oy = index / out_w % out_h;
  size_t const oz = index / (out_w * out_h) % out_d;
  size_t const slice = index / (out_w * out_h * out_d);  // b * c + ch
  const __nv_bfloat16* volume = in + slice * d * h * w;
  float sum = 0.0f;
  for (size_t i = 0; i < kernel_size; ++i) {
    size_t const z = oz * stride + i;  // in the padded volume: the input's depth is z - padding
    if (z < padding || z - padding >= d) continue;
    for (size_t j = 0; j < kernel_size; ++j) {
      size_t const y = oy * stride + j;
      if (y < padding || y - padding >= h) continue;
      for (size_t k = 0; k < kernel_size; ++k) {
        size_t const x = ox * stride + k;
        if (x < padding || x - padding >= w) continue;
        sum += __bfloat162float(volume[((z - padding) * h + (y - padding)) * w + (x - padding)]);
      }
    }
  }
  out[index] = __float2bfloat16_rn(sum / static_cast<float>(kernel_size * kernel_size * kernel_size));
}

extern "C" void avg_pool3d_bf16(const __nv_bfloat16* in, __nv_bfloat16* out, size_t n, size_t c, size_t d,
                                size_t h, size_t w, size_t kernel_size, size_t stride, size_t padding) {
  if (kernel_size == 0 || stride == 0 || d + 2 * padding < kernel_size || h + 2 * padding < kernel_size ||
      w + 2 * padding < kernel_size)
    return;
  size_t const out_d = (d + 2 * padding - kernel_size) / stride + 1;
  size_t const out_h = (h + 2 * padding - kernel_size) / stride + 1;
  size_t const out_w = (w + 2 * padding - kernel_size) / stride + 1;
  size_t const total = n * c * out_d * out_h * out_w;
  if (total == 0) return;
  avg_pool3d_bf16_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      in, out, d, h, w, out_d, out_h, out_w, kernel_size, stride, padding, total);
}
