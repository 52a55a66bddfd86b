// Numerically stable softmax of each row (the suite's row_softmax reference): one thread per row, max,
// sum of exponentials and normalised write, in double; each output rounded once.
__global__ void softmax_rows_kernel(float* y, const float* x, int cols, int rows) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* in = x + static_cast<long long>(row) * cols;
  float* out = y + static_cast<long long>(row) * cols;
  double max_value = static_cast<double>(in[0]);
  for (int j = 1; j < cols; ++j) max_value = fmax(max_value, static_cast<double>(in[j]));
  double sum = 0.0;
  for (int j = 0; j < cols; ++j) sum += exp(static_cast<double>(in[j]) - max_value);
  for (int j = 0; j < cols; ++j)
    out[j] = static_cast<float>(exp(static_cast<double>(in[j]) - max_value) / sum);
}

extern "C" void softmax_rows(float* y, const float* x, int cols, int rows) {
  if (rows <= 0 || cols <= 0) return;
  softmax_rows_kernel<<<(rows + 31) / 32, 32>>>(y, x, cols, rows);
}
