// dst[x][y] = src[y][x] for a height x width row-major BF16 matrix, one thread per element (the suite's
// transpose).
#include <cuda_bf16.h>

#include <cstddef>

__global__ void transpose_bf16_kernel(__nv_bfloat16* dst, const __nv_bfloat16* src, size_t height,
                                      size_t width) {
  size_t const x = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  size_t const y = static_cast<size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (y >= height || x >= width) return;
  dst[x * height + y] = src[y * width + x];
}

extern "C" void transpose_bf16(__nv_bfloat16* dst, const __nv_bfloat16* src, size_t height, size_t width) {
  if (height == 0 || width == 0) return;
  dim3 const block(16, 16);
  dim3 const grid(static_cast<unsigned>((width + 15) / 16), static_cast<unsigned>((height + 15) / 16));
  transpose_bf16_kernel<<<grid, block>>>(dst, src, height, width);
}
