// expect: wrong_output
// defeats: a loose absolute tolerance (rows still sum to one; kopt rejects constant outputs when the reference varies)
// mode: kernel
// task: examples/softmax

// Writes the uniform distribution 1/C everywhere: rows sum to one, values are tiny, the output is constant.
extern "C" __global__ void softmax(float* out, const float* in, int N, int C) {
  int const row = blockIdx.x * 8 + threadIdx.x / 32;
  if (row >= N) return;
  float const value = 1.0f / static_cast<float>(C);
  for (int j = threadIdx.x % 32; j < C; j += 32) out[static_cast<long long>(row) * C + j] = value;
}
