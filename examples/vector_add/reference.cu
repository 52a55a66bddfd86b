// Reference for examples/vector_add: one thread per element in 64-thread blocks.
// Naive on purpose (small blocks, scalar loads) but obviously correct.

__global__ void vector_add_reference_kernel(float* c, const float* a, const float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" void vector_add(float* c, const float* a, const float* b, int n) {
  if (n <= 0) return;
  int const block = 64;
  int const grid = (n + block - 1) / block;
  vector_add_reference_kernel<<<grid, block>>>(c, a, b, n);
}
