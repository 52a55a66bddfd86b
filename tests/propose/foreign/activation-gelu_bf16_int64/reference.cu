// GELU (tanh approximation), evaluated in double and rounded once to BF16 (as the suite's gelu_tanh
// reference).
#include <cuda_bf16.h>

#include <cstdint>

__global__ void gelu_bf16_kernel(__nv_bfloat16* dst, const __nv_bfloat16* src, int64_t count) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= count) return;
  double const sqrt_2_over_pi = 0.7978845608028654;
  double const x = static_cast<double>(__bfloat162float(src[i]));
  double const inner = sqrt_2_over_pi * (x + 0.044715 * x * x * x);
  dst[i] = __double2bfloat16(0.5 * x * (1.0 + tanh(inner)));
}

extern "C" void gelu_bf16(__nv_bfloat16* dst, const __nv_bfloat16* src, int64_t count) {
  if (count <= 0) return;
  gelu_bf16_kernel<<<static_cast<unsigned>((count + 255) / 256), 256>>>(dst, src, count);
}
