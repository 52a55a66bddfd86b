// Reference for examples/softmax: one thread per row, three passes over the row (max, sum of
// exponentials, normalised write). Naive on purpose (uncoalesced, little parallelism) but obviously
// correct and numerically stable. The sum is accumulated in double: a float running sum over 4096
// terms drifts by up to ~1.5e-5 relative, more than the task's tolerance, and the reference must be
// the accurate side of every comparison.

__global__ void softmax_reference_kernel(float* out, const float* in, int N, int C) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  const float* x = in + static_cast<long long>(row) * C;
  float* y = out + static_cast<long long>(row) * C;
  float max_value = x[0];
  for (int j = 1; j < C; ++j) max_value = fmaxf(max_value, x[j]);
  double sum = 0.0;
  for (int j = 0; j < C; ++j) sum += expf(x[j] - max_value);
  for (int j = 0; j < C; ++j) y[j] = static_cast<float>(expf(x[j] - max_value) / sum);
}

extern "C" void softmax(float* out, const float* in, int N, int C) {
  if (N <= 0 || C <= 0) return;
  int const block = 128;
  int const grid = (N + block - 1) / block;
  softmax_reference_kernel<<<grid, block>>>(out, in, N, C);
}
