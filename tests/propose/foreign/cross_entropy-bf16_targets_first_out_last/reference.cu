// Softmax cross-entropy of BF16 logits, one thread per row: the row's maximum, the sum of exponentials
// relative to it and the loss in double, rounded once to float.
#include <cuda_bf16.h>

__global__ void softmax_xent_bf16_kernel(const int* targets, const __nv_bfloat16* x, int n_classes,
                                         int n_rows, float* xent) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n_rows) return;
  const __nv_bfloat16* row = x + static_cast<long long>(r) * n_classes;
  double max_value = __bfloat162float(row[0]);
  for (int k = 1; k < n_classes; ++k)
    max_value = fmax(max_value, static_cast<double>(__bfloat162float(row[k])));
  double sum = 0.0;
  for (int k = 0; k < n_classes; ++k) sum += exp(static_cast<double>(__bfloat162float(row[k])) - max_value);
  xent[r] = static_cast<float>(log(sum) + max_value - static_cast<double>(__bfloat162float(row[targets[r]])));
}

extern "C" void softmax_xent_bf16(const int* targets, const __nv_bfloat16* x, int n_classes, int n_rows,
                                  float* xent) {
  if (n_classes <= 0 || n_rows <= 0) return;
  softmax_xent_bf16_kernel<<<(n_rows + 31) / 32, 32>>>(targets, x, n_classes, n_rows, xent);
}
