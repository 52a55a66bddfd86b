// result[j] = sum of column j (the suite's col_sum reference): one thread per column, a double sum, one
// rounding.
__global__ void column_sums_kernel(const float* data, int n_rows, int n_cols, float* result) {
  int const j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n_cols) return;
  double sum = 0.0;
  for (long long i = 0; i < n_rows; ++i) sum += static_cast<double>(data[i * n_cols + j]);
  result[j] = static_cast<float>(sum);
}

extern "C" void column_sums(const float* data, int n_rows, int n_cols, float* result) {
  if (n_cols <= 0) return;
  column_sums_kernel<<<(n_cols + 127) / 128, 128>>>(data, n_rows < 0 ? 0 : n_rows, n_cols, result);
}
