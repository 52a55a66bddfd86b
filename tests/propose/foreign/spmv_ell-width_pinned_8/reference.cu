// y = A x, A in ELLPACK with 8 row-major slots per row (padding column -1): one thread per row, FP32
// accumulation in slot order (the suite's spmv_ell reference).
__global__ void spmv_ell8_kernel(float* y, const float* val, const int* col_ind, const float* x, int nrows) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= nrows) return;
  float sum = 0.0f;
  for (int j = 0; j < 8; ++j) {
    int const c = col_ind[8LL * row + j];
    if (c != -1) sum += val[8LL * row + j] * x[c];
  }
  y[row] = sum;
}

extern "C" void spmv_ell8(float* y, const float* val, const int* col_ind, const float* x, int nrows,
                          int ncols) {
  (void)ncols;
  if (nrows <= 0) return;
  spmv_ell8_kernel<<<(nrows + 255) / 256, 256>>>(y, val, col_ind, x, nrows);
}
