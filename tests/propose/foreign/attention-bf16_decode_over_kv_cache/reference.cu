// Queries over a KV cache, one thread per query row: BF16 widened to float, scores in float, the softmax
// and the weighted sum of value rows in double, one rounding to BF16. Head sizes up to 128.
#include <cuda_bf16.h>

__global__ void decode_attention_kernel(__nv_bfloat16* out, const __nv_bfloat16* query,
                                        const __nv_bfloat16* key_cache, const __nv_bfloat16* value_cache,
                                        long long rows, int num_queries, int cache_len, int head_size) {
  long long const row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  long long const kv = row / num_queries * cache_len * head_size;
  const __nv_bfloat16* qr = query + row * head_size;
  float const scale = 1.0f / sqrtf(static_cast<float>(head_size));
  float max_score = -INFINITY;
  for (int j = 0; j < cache_len; ++j) {
    float dot = 0.0f;
    for (int d = 0; d < head_size; ++d)
      dot += __bfloat162float(qr[d]) *
             __bfloat162float(key_cache[kv + static_cast<long long>(j) * head_size + d]);
    max_score = fmaxf(max_score, dot * scale);
  }
  double acc[128];
  for (int d = 0; d < head_size; ++d) acc[d] = 0.0;
  double sum = 0.0;
  for (int j = 0; j < cache_len; ++j) {
    float dot = 0.0f;
    for (int d = 0; d < head_size; ++d)
      dot += __bfloat162float(qr[d]) *
             __bfloat162float(key_cache[kv + static_cast<long long>(j) * head_size + d]);
    double const p = exp(static_cast<double>(dot * scale - max_score));
    sum += p;
    for (int d = 0; d < head_size; ++d)
      acc[d] += p * __bfloat162float(value_cache[kv + static_cast<long long>(j) * head_size + d]);
  }
  for (int d = 0; d < head_size; ++d)
    out[row * head_size + d] = __float2bfloat16_rn(static_cast<float>(acc[d] / sum));
}

extern "C" void decode_attention(__nv_bfloat16* out, const __nv_bfloat16* query,
                                 const __nv_bfloat16* key_cache, const __nv_bfloat16* value_cache,
                                 int num_seq_heads, int num_queries, int cache_len, int head_size) {
  long long const rows = static_cast<long long>(num_seq_heads) * num_queries;
  if (rows <= 0 || cache_len <= 0 || head_size <= 0 || head_size > 128) return;
  decode_attention_kernel<<<static_cast<unsigned>((rows + 127) / 128), 128>>>(
      out, query, key_cache, value_cache, rows, num_queries, cache_len, head_size);
}
