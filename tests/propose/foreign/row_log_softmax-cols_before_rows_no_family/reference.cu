// Numerically stable log-softmax of each row (the suite's row_log_softmax reference): one thread per row,
// max, sum of exponentials in double, then x - (max + log(sum)); each output rounded once.
__global__ void log_softmax_rows_kernel(float* y, const float* x, int cols, int rows) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* in = x + static_cast<long long>(row) * cols;
  float* out = y + static_cast<long long>(row) * cols;
  double max_value = static_cast<double>(in[0]);
  for (int j = 1; j < cols; ++j) max_value = fmax(max_value, static_cast<double>(in[j]));
  double sum = 0.0;
  for (int j = 0; j < cols; ++j) sum += exp(static_cast<double>(in[j]) - max_value);
  double const shift = max_value + log(sum);
  for (int j = 0; j < cols; ++j) out[j] = static_cast<float>(static_cast<double>(in[j]) - shift);
}

extern "C" void log_softmax_rows(float* y, const float* x, int cols, int rows) {
  if (rows <= 0 || cols <= 0) return;
  log_softmax_rows_kernel<<<(rows + 31) / 32, 32>>>(y, x, cols, rows);
}
