// 7-point mean of the face neighbours, boundary copied: one thread per voxel (flat index), FP32 sums
// of the widened neighbours in the order x-1, x+1, y-1, y+1, z-1, z+1, times 1/6, one rounding to BF16.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void smooth_volume_bf16_kernel(__nv_bfloat16* dst, const __nv_bfloat16* src, int64_t width,
                                          int64_t height, int64_t depth) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t const plane = width * height;
  if (i >= plane * depth) return;
  int64_t const x = i % width;
  int64_t const y = i / width % height;
  int64_t const z = i / plane;
  if (x == 0 || y == 0 || z == 0 || x == width - 1 || y == height - 1 || z == depth - 1) {
    dst[i] = src[i];
    return;
  }
  float const sum = __bfloat162float(src[i - 1]) + __bfloat162float(src[i + 1]) +
                    __bfloat162float(src[i - width]) + __bfloat162float(src[i + width]) +
                    __bfloat162float(src[i - plane]) + __bfloat162float(src[i + plane]);
  dst[i] = __float2bfloat16_rn(sum * (1.0f / 6.0f));
}

extern "C" void smooth_volume_bf16(__nv_bfloat16* dst, const __nv_bfloat16* src, int64_t width,
                                   int64_t height, int64_t depth) {
  int64_t const total = width * height * depth;
  if (total <= 0) return;
  smooth_volume_bf16_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(dst, src, width, height,
                                                                                 depth);
}
