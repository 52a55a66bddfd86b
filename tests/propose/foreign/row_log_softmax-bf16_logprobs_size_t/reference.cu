// Numerically stable log-softmax of each row (the suite's row_log_softmax reference): one thread per row,
// max, sum of exponentials in double, then x - (max + log(sum)); each output rounded once to BF16.
#include <cuda_bf16.h>

#include <cstddef>

__global__ void logprobs_bf16_kernel(__nv_bfloat16* logprobs, const __nv_bfloat16* logits, size_t batch,
                                     size_t vocab) {
  size_t const row = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= batch) return;
  const __nv_bfloat16* x = logits + row * vocab;
  __nv_bfloat16* y = logprobs + row * vocab;
  double max_value = static_cast<double>(__bfloat162float(x[0]));
  for (size_t j = 1; j < vocab; ++j) max_value = fmax(max_value, static_cast<double>(__bfloat162float(x[j])));
  double sum = 0.0;
  for (size_t j = 0; j < vocab; ++j) sum += exp(static_cast<double>(__bfloat162float(x[j])) - max_value);
  double const shift = max_value + log(sum);
  for (size_t j = 0; j < vocab; ++j)
    y[j] = __double2bfloat16(static_cast<double>(__bfloat162float(x[j])) - shift);
}

extern "C" void logprobs_bf16(__nv_bfloat16* logprobs, const __nv_bfloat16* logits, size_t batch,
                              size_t vocab) {
  if (batch == 0 || vocab == 0) return;
  logprobs_bf16_kernel<<<static_cast<unsigned>((batch + 31) / 32), 32>>>(logprobs, logits, batch, vocab);
}
