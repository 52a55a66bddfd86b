// gate = silu(gate) * up in place on BF16, one thread per element: FP32 arithmetic, rounded once.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void swiglu_inplace_bf16_kernel(__nv_bfloat16* gate, const __nv_bfloat16* up, int64_t numel) {
  int64_t const i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= numel) return;
  float const g = __bfloat162float(gate[i]);
  gate[i] = __float2bfloat16(g / (1.0f + expf(-g)) * __bfloat162float(up[i]));
}

extern "C" void swiglu_inplace_bf16(__nv_bfloat16* gate, const __nv_bfloat16* up, int64_t numel) {
  if (numel <= 0) return;
  swiglu_inplace_bf16_kernel<<<static_cast<unsigned>((numel + 255) / 256), 256>>>(gate, up, numel);
}
