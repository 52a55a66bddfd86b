// BF16 max pooling without padding (the suite's pool2d reference): one thread per output, the window
// widened to FP32 in row order, the maximum stored back (exact).
#include <cuda_bf16.h>

#include <cstddef>

__global__ void max_pool2d_bf16_kernel(__nv_bfloat16* output, const __nv_bfloat16* input, size_t total,
                                       size_t in_h, size_t in_w, size_t pool_size, size_t pool_stride) {
  size_t const out_h = (in_h - pool_size) / pool_stride + 1;
  size_t const out_w = (in_w - pool_size) / pool_stride + 1;
  size_t const index = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (index >= total) return;
  size_t const x = index % out_w;
  size_t const y = index / out_w % out_h;
  size_t const plane = index / (out_w * out_h);
  const __nv_bfloat16* window = input + (plane * in_h + y * pool_stride) * in_w + x * pool_stride;
  float best = __bfloat162float(window[0]);
  for (size_t i = 0; i < pool_size; ++i)
    for (size_t j = 0; j < pool_size; ++j) best = fmaxf(best, __bfloat162float(window[i * in_w + j]));
  output[index] = __float2bfloat16_rn(best);
}

extern "C" void max_pool2d_bf16(__nv_bfloat16* output, const __nv_bfloat16* input, size_t batch_size,
                                size_t num_channels, size_t in_h, size_t in_w, size_t pool_size,
                                size_t pool_stride) {
  if (in_h < pool_size || in_w < pool_size || pool_stride == 0) return;
  size_t const total = batch_size * num_channels * ((in_h - pool_size) / pool_stride + 1) *
                       ((in_w - pool_size) / pool_stride + 1);
  if (total == 0) return;
  max_pool2d_bf16_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(output, input, total, in_h,
                                                                              in_w, pool_size, pool_stride);
}
