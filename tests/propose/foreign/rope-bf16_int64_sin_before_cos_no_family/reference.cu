// Half-split rotary embedding on BF16 keys: one thread per output element; element d of a head pairs with
// element d + h (d < h) or d - h, both rotated by angle index d mod h of the token. FP32 arithmetic, each
// output rounded once to BF16.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void neox_rotary_keys_kernel(__nv_bfloat16* k_out, const __nv_bfloat16* k,
                                        const __nv_bfloat16* sin_t, const __nv_bfloat16* cos_t,
                                        int64_t tokens, int64_t heads, int64_t dim) {
  int64_t const e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= tokens * heads * dim) return;
  int64_t const h = dim / 2;
  int64_t const d = e % dim;
  int64_t const t = e / (heads * dim);
  int64_t const head = e - d;
  int64_t const i = d < h ? d : d - h;
  float const c = __bfloat162float(cos_t[t * h + i]);
  float const s = __bfloat162float(sin_t[t * h + i]);
  float const first = __bfloat162float(k[head + i]);
  float const second = __bfloat162float(k[head + i + h]);
  k_out[e] = __float2bfloat16(d < h ? first * c - second * s : second * c + first * s);
}

extern "C" void neox_rotary_keys_bf16(__nv_bfloat16* k_out, const __nv_bfloat16* k,
                                      const __nv_bfloat16* sin_t, const __nv_bfloat16* cos_t, int64_t tokens,
                                      int64_t heads, int64_t dim) {
  int64_t const total = tokens * heads * dim;
  if (total <= 0 || dim % 2 != 0) return;
  neox_rotary_keys_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(k_out, k, sin_t, cos_t, tokens,
                                                                               heads, dim);
}
