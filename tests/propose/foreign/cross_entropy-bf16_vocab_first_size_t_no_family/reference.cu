// Per-token negative log-likelihood of BF16 logits, one thread per token: the row's maximum, the sum of
// exponentials relative to it and the loss in double, rounded once to float.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void token_nll_bf16_kernel(size_t vocab_size, size_t num_tokens, const __nv_bfloat16* logits,
                                      const int* token_ids, float* nll) {
  size_t const t = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= num_tokens) return;
  const __nv_bfloat16* row = logits + t * vocab_size;
  double max_value = __bfloat162float(row[0]);
  for (size_t v = 1; v < vocab_size; ++v)
    max_value = fmax(max_value, static_cast<double>(__bfloat162float(row[v])));
  double sum = 0.0;
  for (size_t v = 0; v < vocab_size; ++v)
    sum += exp(static_cast<double>(__bfloat162float(row[v])) - max_value);
  nll[t] =
      static_cast<float>(log(sum) + max_value - static_cast<double>(__bfloat162float(row[token_ids[t]])));
}

extern "C" void token_nll_bf16(size_t vocab_size, size_t num_tokens, const __nv_bfloat16* logits,
                               const int* token_ids, float* nll) {
  if (vocab_size == 0 || num_tokens == 0) return;
  token_nll_bf16_kernel<<<static_cast<unsigned>((num_tokens + 31) / 32), 32>>>(vocab_size, num_tokens, logits,
                                                                               token_ids, nll);
}
