// The log-sum-exp of each row: one thread per row, the maximum then the sum of exponentials in double.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void logsumexp_rows_kernel(const __nv_bfloat16* logits, __nv_bfloat16* lse, int64_t n_rows,
                                      int64_t vocab) {
  int64_t const r = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= n_rows) return;
  const __nv_bfloat16* x = logits + r * vocab;
  double m = __bfloat162float(x[0]);
  for (int64_t c = 1; c < vocab; ++c) m = fmax(m, static_cast<double>(__bfloat162float(x[c])));
  double sum = 0.0;
  for (int64_t c = 0; c < vocab; ++c) sum += exp(static_cast<double>(__bfloat162float(x[c])) - m);
  lse[r] = __float2bfloat16(static_cast<float>(m + log(sum)));
}

extern "C" void logsumexp_rows(const __nv_bfloat16* logits, __nv_bfloat16* lse, int64_t n_rows,
                               int64_t vocab) {
  if (n_rows <= 0 || vocab <= 0) return;
  logsumexp_rows_kernel<<<static_cast<unsigned>((n_rows + 63) / 64), 64>>>(logits, lse, n_rows, vocab);
}
