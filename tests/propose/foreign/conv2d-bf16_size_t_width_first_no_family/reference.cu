// Same-size zero-padded cross-correlation with an odd ksize x ksize filter: one thread per output, FP32
// sums of the widened values in (i, j) order, one rounding to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void blur_bf16_kernel(const __nv_bfloat16* image, const __nv_bfloat16* filter,
                                 __nv_bfloat16* result, size_t width, size_t height, size_t ksize) {
  size_t const x = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  size_t const y = static_cast<size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  long long const half = static_cast<long long>(ksize / 2);
  float sum = 0.0f;
  for (size_t i = 0; i < ksize; ++i) {
    long long const yy = static_cast<long long>(y + i) - half;
    if (yy < 0 || yy >= static_cast<long long>(height)) continue;
    for (size_t j = 0; j < ksize; ++j) {
      long long const xx = static_cast<long long>(x + j) - half;
      if (xx < 0 || xx >= static_cast<long long>(width)) continue;
      sum += __bfloat162float(filter[i * ksize + j]) * __bfloat162float(image[yy * width + xx]);
    }
  }
  result[y * width + x] = __float2bfloat16_rn(sum);
}

extern "C" void blur_bf16(const __nv_bfloat16* image, const __nv_bfloat16* filter, __nv_bfloat16* result,
                          size_t width, size_t height, size_t ksize) {
  if (width == 0 || height == 0 || ksize == 0) return;
  dim3 const block(32, 8);
  dim3 const grid(static_cast<unsigned>((width + 31) / 32), static_cast<unsigned>((height + 7) / 8));
  blur_bf16_kernel<<<grid, block>>>(image, filter, result, width, height, ksize);
}
