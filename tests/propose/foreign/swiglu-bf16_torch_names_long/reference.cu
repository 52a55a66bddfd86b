// result = silu(gate_proj) * up_proj on BF16, one thread per element: evaluated in double, rounded once.
#include <cuda_bf16.h>

__global__ void swiglu_bf16_kernel(__nv_bfloat16* result, const __nv_bfloat16* gate_proj,
                                   const __nv_bfloat16* up_proj, long numel) {
  long const i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= numel) return;
  double const g = __bfloat162float(gate_proj[i]);
  result[i] = __double2bfloat16(g / (1.0 + exp(-g)) * static_cast<double>(__bfloat162float(up_proj[i])));
}

extern "C" void swiglu_bf16(__nv_bfloat16* result, const __nv_bfloat16* gate_proj,
                            const __nv_bfloat16* up_proj, long numel) {
  if (numel <= 0) return;
  swiglu_bf16_kernel<<<static_cast<unsigned>((numel + 255) / 256), 256>>>(result, gate_proj, up_proj, numel);
}
