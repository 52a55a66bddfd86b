// Cross-entropy per sample with int64 targets, one thread per row: the BF16 logits widened, the row's
// maximum, the sum of exponentials relative to it and the loss in double, rounded once to float.
#include <cuda_bf16.h>

#include <cstdint>

__global__ void nll_from_logits_kernel(float* loss, const __nv_bfloat16* logits, const int64_t* targets,
                                       int batch, int classes) {
  int const b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const __nv_bfloat16* row = logits + static_cast<int64_t>(b) * classes;
  double max_value = __bfloat162float(row[0]);
  for (int c = 1; c < classes; ++c)
    max_value = fmax(max_value, static_cast<double>(__bfloat162float(row[c])));
  double sum = 0.0;
  for (int c = 0; c < classes; ++c) sum += exp(static_cast<double>(__bfloat162float(row[c])) - max_value);
  loss[b] = static_cast<float>(log(sum) + max_value - static_cast<double>(__bfloat162float(row[targets[b]])));
}

extern "C" void nll_from_logits(float* loss, const __nv_bfloat16* logits, const int64_t* targets, int batch,
                                int classes) {
  if (batch <= 0 || classes <= 0) return;
  nll_from_logits_kernel<<<(batch + 31) / 32, 32>>>(loss, logits, targets, batch, classes);
}
