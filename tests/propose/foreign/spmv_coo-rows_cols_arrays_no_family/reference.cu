// y = A x, A in row-sorted COO: one thread per row finds its first nonzero by binary search, sums its run
// in FP32 and rounds once (the suite's spmv_coo reference).
__global__ void coo_spmv_kernel(int num_rows, int num_nnz, const int* rows, const int* cols,
                                const float* values, const float* x, float* y) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= num_rows) return;
  int lo = 0;
  int hi = num_nnz;
  while (lo < hi) {
    int const mid = lo + (hi - lo) / 2;
    if (rows[mid] < row) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  float sum = 0.0f;
  for (int k = lo; k < num_nnz && rows[k] == row; ++k) sum += values[k] * x[cols[k]];
  y[row] = sum;
}

extern "C" void coo_spmv(int num_rows, int num_cols, int num_nnz, const int* rows, const int* cols,
                         const float* values, const float* x, float* y) {
  (void)num_cols;
  if (num_rows <= 0) return;
  coo_spmv_kernel<<<(num_rows + 255) / 256, 256>>>(num_rows, num_nnz, rows, cols, values, x, y);
}
