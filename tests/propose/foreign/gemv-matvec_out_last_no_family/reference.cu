// out = mat * vec, mat row-major rows x cols: one thread per row, double accumulation, one rounding
// (the suite's gemv reference).
__global__ void matvec_kernel(const float* mat, const float* vec, float* out, int rows, int cols) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const float* a = mat + static_cast<long long>(row) * cols;
  double sum = 0.0;
  for (int j = 0; j < cols; ++j) sum += static_cast<double>(a[j]) * static_cast<double>(vec[j]);
  out[row] = static_cast<float>(sum);
}

extern "C" void matvec(const float* mat, const float* vec, float* out, int rows, int cols) {
  if (rows <= 0) return;
  matvec_kernel<<<(rows + 255) / 256, 256>>>(mat, vec, out, rows, cols);
}
