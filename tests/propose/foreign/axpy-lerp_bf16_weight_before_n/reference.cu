// out = start + weight * (end - start), one thread per element, FP32 arithmetic.
#include <cuda_bf16.h>

__global__ void lerp_kernel(__nv_bfloat16* out, const __nv_bfloat16* start, const __nv_bfloat16* end,
                            float weight, int numel) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= numel) return;
  float const s = __bfloat162float(start[i]);
  out[i] = __float2bfloat16(s + weight * (__bfloat162float(end[i]) - s));
}

extern "C" void lerp(__nv_bfloat16* out, const __nv_bfloat16* start, const __nv_bfloat16* end, float weight,
                     int numel) {
  if (numel <= 0) return;
  lerp_kernel<<<(numel + 255) / 256, 256>>>(out, start, end, weight, numel);
}
