// One warp per token copies its embedding row element by element.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void token_embedding_kernel(__nv_bfloat16* hidden_states, const int64_t* token_ids,
                                       const __nv_bfloat16* embed_table, int64_t n_tokens, int64_t d_model) {
  int64_t const t = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  if (t >= n_tokens) return;
  int const lane = threadIdx.x % 32;
  const __nv_bfloat16* row = embed_table + token_ids[t] * d_model;
  for (int64_t k = lane; k < d_model; k += 32) hidden_states[t * d_model + k] = row[k];
}

extern "C" void token_embedding_bf16(__nv_bfloat16* hidden_states, const int64_t* token_ids,
                                     const __nv_bfloat16* embed_table, int64_t n_tokens, int64_t d_model) {
  if (n_tokens <= 0 || d_model <= 0) return;
  token_embedding_kernel<<<static_cast<unsigned>((n_tokens * 32 + 255) / 256), 256>>>(
      hidden_states, token_ids, embed_table, n_tokens, d_model);
}
