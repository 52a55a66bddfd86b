// SiLU on pairs of BF16 values: each half widened, computed in FP32, rounded once.
#include <cuda_bf16.h>

__global__ void silu_bf162_kernel(__nv_bfloat162* __restrict__ out, const __nv_bfloat162* __restrict__ in,
                                  int pairs) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= pairs) return;
  float2 const v = __bfloat1622float2(in[i]);
  out[i] = __floats2bfloat162_rn(v.x / (1.0f + expf(-v.x)), v.y / (1.0f + expf(-v.y)));
}

extern "C" void silu_bf162(__nv_bfloat162* __restrict__ out, const __nv_bfloat162* __restrict__ in,
                           int pairs) {
  if (pairs <= 0) return;
  silu_bf162_kernel<<<(pairs + 255) / 256, 256>>>(out, in, pairs);
}
