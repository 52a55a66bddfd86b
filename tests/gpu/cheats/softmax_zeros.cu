// expect: wrong_output
// defeats: a fixed absolute tolerance (softmax outputs at large C are ~1e-4, so zeros pass atol 1e-4)
// mode: kernel
// task: examples/softmax

// Writes zeros: within a fixed atol of most softmax outputs, but not of a tolerance scaled to max|ref|.
extern "C" __global__ void softmax(float* out, const float* in, int N, int C) {
  int const row = blockIdx.x * 8 + threadIdx.x / 32;
  if (row >= N) return;
  for (int j = threadIdx.x % 32; j < C; j += 32) out[static_cast<long long>(row) * C + j] = 0.0f;
}
