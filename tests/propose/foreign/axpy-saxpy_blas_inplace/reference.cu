// The textbook saxpy: one thread per element.
__global__ void saxpy_kernel(int n, float alpha, const float* x, float* y) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

extern "C" void saxpy(int n, float alpha, const float* x, float* y) {
  if (n <= 0) return;
  saxpy_kernel<<<(n + 255) / 256, 256>>>(n, alpha, x, y);
}
