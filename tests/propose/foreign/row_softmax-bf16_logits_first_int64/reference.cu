// Numerically stable softmax of each row (the suite's row_softmax reference): one thread per row, max,
// sum of exponentials and normalised write, in double; each output rounded once to BF16.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void softmax_bf16_kernel(const __nv_bfloat16* logits, __nv_bfloat16* probs, int64_t batch,
                                    int64_t vocab) {
  int64_t const row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= batch) return;
  const __nv_bfloat16* x = logits + row * vocab;
  __nv_bfloat16* y = probs + row * vocab;
  double max_value = static_cast<double>(__bfloat162float(x[0]));
  for (int64_t j = 1; j < vocab; ++j)
    max_value = fmax(max_value, static_cast<double>(__bfloat162float(x[j])));
  double sum = 0.0;
  for (int64_t j = 0; j < vocab; ++j) sum += exp(static_cast<double>(__bfloat162float(x[j])) - max_value);
  for (int64_t j = 0; j < vocab; ++j)
    y[j] = __double2bfloat16(exp(static_cast<double>(__bfloat162float(x[j])) - max_value) / sum);
}

extern "C" void softmax_bf16(const __nv_bfloat16* logits, __nv_bfloat16* probs, int64_t batch,
                             int64_t vocab) {
  if (batch <= 0 || vocab <= 0) return;
  softmax_bf16_kernel<<<static_cast<unsigned>((batch + 31) / 32), 32>>>(logits, probs, batch, vocab);
}
