// expect: input_mutated
// defeats: output comparison alone (the output is exactly the reference's)
// mode: kernel
// task: examples/softmax

// The reference's algorithm (one thread per row, sum in double), so the output is bit-identical, but
// it uses the const input as scratch: exp(x - max) is stored over the input, then read back for the
// division. The cast drops `const` to do it.
// kopt:launch grid=(ceil_div(N, 128)) block=(128)
extern "C" __global__ void softmax(float* out, const float* in, int N, int C) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= N) return;
  float* x = const_cast<float*>(in) + static_cast<long long>(row) * C;
  float* y = out + static_cast<long long>(row) * C;
  float max_value = x[0];
  for (int j = 1; j < C; ++j) max_value = fmaxf(max_value, x[j]);
  double sum = 0.0;
  for (int j = 0; j < C; ++j) {
    x[j] = expf(x[j] - max_value);
    sum += x[j];
  }
  for (int j = 0; j < C; ++j) y[j] = static_cast<float>(x[j] / sum);
}
