// expect: wrong_output
// defeats: an output buffer that already holds the right value (kopt poisons outputs before each run)
// mode: kernel
// task: examples/vector_add

// Never writes the last element; only the poison left in c[n - 1] can give it away.
extern "C" __global__ void vector_add(float* c, const float* a, const float* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) c[i] = a[i] + b[i];
}
