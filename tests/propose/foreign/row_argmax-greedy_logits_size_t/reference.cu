// Greedy decoding: one thread per sequence scans its logits in order (the first maximum wins).
#include <cstddef>

__global__ void greedy_kernel(const float* logits, int* next_token, size_t batch, size_t vocab) {
  size_t const b = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float* row = logits + b * vocab;
  size_t best = 0;
  for (size_t v = 1; v < vocab; ++v) {
    if (row[v] > row[best]) best = v;
  }
  next_token[b] = static_cast<int>(best);
}

extern "C" void greedy_sample(const float* logits, int* next_token, size_t batch, size_t vocab) {
  if (batch == 0) return;
  greedy_kernel<<<static_cast<unsigned>((batch + 63) / 64), 64>>>(logits, next_token, batch, vocab);
}
