// y += A x: one thread per row, the dot product in FP32, added to the row's y.
__global__ void gemv_add_kernel(int m, int n, const float* A, const float* x, float* y) {
  int const r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m) return;
  float sum = 0.0f;
  for (int c = 0; c < n; ++c) sum += A[static_cast<long long>(r) * n + c] * x[c];
  y[r] += sum;
}

extern "C" void gemv_add(int m, int n, const float* A, const float* x, float* y) {
  if (m <= 0) return;
  gemv_add_kernel<<<(m + 127) / 128, 128>>>(m, n, A, x, y);
}
