// x[i] += bias[(i / hw) % c] in place: one thread per element, the sum in FP32, one rounding to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void add_channel_bias_kernel(__nv_bfloat16* x, const __nv_bfloat16* bias, size_t c, size_t hw,
                                        size_t total) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  x[i] = __float2bfloat16_rn(__bfloat162float(x[i]) + __bfloat162float(bias[(i / hw) % c]));
}

extern "C" void add_channel_bias_(__nv_bfloat16* x, const __nv_bfloat16* bias, size_t n, size_t c,
                                  size_t hw) {
  size_t const total = n * c * hw;
  if (total == 0) return;
  add_channel_bias_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(x, bias, c, hw, total);
}
