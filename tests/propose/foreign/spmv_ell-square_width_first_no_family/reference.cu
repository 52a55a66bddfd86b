// y = A x, A square in ELLPACK (row-major slots, padding column -1): one thread per row, FP32
// accumulation in slot order (the suite's spmv_ell reference).
__global__ void ell_matvec_kernel(int n, int width, const int* col, const float* val, const float* x,
                                  float* y) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < width; ++j) {
    long long const slot = static_cast<long long>(row) * width + j;
    if (col[slot] >= 0) sum += val[slot] * x[col[slot]];
  }
  y[row] = sum;
}

extern "C" void ell_matvec(int n, int width, const int* col, const float* val, const float* x, float* y) {
  if (n <= 0) return;
  ell_matvec_kernel<<<(n + 255) / 256, 256>>>(n, width, col, val, x, y);
}
