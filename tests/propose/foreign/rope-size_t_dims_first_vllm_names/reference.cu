// Half-split rotary embedding on BF16 queries: one thread per output element; element d of a head pairs with
// element d + h (d < h) or d - h, both rotated by angle index d mod h of the token. FP32 arithmetic, each
// output rounded once to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void rotary_neox_bf16_kernel(size_t num_tokens, size_t num_heads, size_t head_size,
                                        const __nv_bfloat16* query, const __nv_bfloat16* cos_cache,
                                        const __nv_bfloat16* sin_cache, __nv_bfloat16* query_out) {
  size_t const e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= num_tokens * num_heads * head_size) return;
  size_t const h = head_size / 2;
  size_t const d = e % head_size;
  size_t const t = e / (num_heads * head_size);
  size_t const head = e - d;
  size_t const i = d < h ? d : d - h;
  float const c = __bfloat162float(cos_cache[t * h + i]);
  float const s = __bfloat162float(sin_cache[t * h + i]);
  float const first = __bfloat162float(query[head + i]);
  float const second = __bfloat162float(query[head + i + h]);
  query_out[e] = __float2bfloat16(d < h ? first * c - second * s : second * c + first * s);
}

extern "C" void rotary_embedding_neox_bf16(size_t num_tokens, size_t num_heads, size_t head_size,
                                           const __nv_bfloat16* query, const __nv_bfloat16* cos_cache,
                                           const __nv_bfloat16* sin_cache, __nv_bfloat16* query_out) {
  size_t const total = num_tokens * num_heads * head_size;
  if (total == 0 || head_size % 2 != 0) return;
  rotary_neox_bf16_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(
      num_tokens, num_heads, head_size, query, cos_cache, sin_cache, query_out);
}
