// One thread per row keeps the top_k largest logits seen so far in a sorted local list (at most 64) and
// inserts each logit in turn: a logit goes in when the list is not full or it beats the smallest kept.
#include <cuda_bf16.h>

#include <cstddef>

constexpr size_t kMaxTopK = 64;

__global__ void top_k_logits_kernel(__nv_bfloat16* top_logits, const __nv_bfloat16* logits, size_t vocab_size,
                                    size_t batch_size, size_t top_k) {
  size_t const b = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= batch_size) return;
  const __nv_bfloat16* row = logits + b * vocab_size;
  float best[kMaxTopK];
  size_t count = 0;
  for (size_t c = 0; c < vocab_size; ++c) {
    float const v = __bfloat162float(row[c]);
    if (count == top_k && !(v > best[top_k - 1])) continue;
    size_t i = count < top_k ? count++ : top_k - 1;
    while (i > 0 && v > best[i - 1]) {
      best[i] = best[i - 1];
      --i;
    }
    best[i] = v;
  }
  for (size_t j = 0; j < top_k; ++j) top_logits[b * top_k + j] = __float2bfloat16_rn(best[j]);
}

extern "C" void top_k_logits(__nv_bfloat16* top_logits, const __nv_bfloat16* logits, size_t vocab_size,
                             size_t batch_size, size_t top_k) {
  if (batch_size == 0 || top_k == 0 || top_k > kMaxTopK || top_k > vocab_size) return;
  top_k_logits_kernel<<<static_cast<unsigned>((batch_size + 31) / 32), 32>>>(top_logits, logits, vocab_size,
                                                                             batch_size, top_k);
}
