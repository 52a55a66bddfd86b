// prod[i] = lhs[i] * rhs[i]: widened to float, multiplied in float, rounded once to BF16 (as the suite's
// vector_add-bf16 reference does for its sum).
#include <cuda_bf16.h>

#include <cstddef>

__global__ void mul_bf16_kernel(const __nv_bfloat16* lhs, const __nv_bfloat16* rhs, __nv_bfloat16* prod,
                                size_t len) {
  size_t const i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < len) prod[i] = __nv_bfloat16(__bfloat162float(lhs[i]) * __bfloat162float(rhs[i]));
}

extern "C" void mul_bf16(__nv_bfloat16* lhs, __nv_bfloat16* rhs, __nv_bfloat16* prod, size_t len) {
  if (len == 0) return;
  unsigned const blocks = static_cast<unsigned>((len + 255) / 256);
  mul_bf16_kernel<<<blocks, 256>>>(lhs, rhs, prod, len);
}
