// SELU in place on BF16: one thread per element, float arithmetic.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void selu_kernel(__nv_bfloat16* x, size_t n, float alpha, float scale) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    float const v = __bfloat162float(x[i]);
    x[i] = __float2bfloat16(scale * (v > 0.0f ? v : alpha * expm1f(v)));
  }
}

extern "C" void selu_(__nv_bfloat16* x, size_t n, float alpha, float scale) {
  if (n == 0) return;
  selu_kernel<<<static_cast<unsigned>((n + 255) / 256), 256>>>(x, n, alpha, scale);
}
