// y = A x, A row-major n_rows x n_cols: one thread per row, double accumulation, one rounding (the
// suite's gemv reference).
#include <cstddef>

__global__ void gemv_f32_kernel(size_t n_cols, size_t n_rows, const float* x, const float* A, float* y) {
  size_t const row = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= n_rows) return;
  const float* a = A + row * n_cols;
  double sum = 0.0;
  for (size_t j = 0; j < n_cols; ++j) sum += static_cast<double>(a[j]) * static_cast<double>(x[j]);
  y[row] = static_cast<float>(sum);
}

extern "C" void gemv_f32(size_t n_cols, size_t n_rows, const float* x, const float* A, float* y) {
  if (n_rows == 0) return;
  gemv_f32_kernel<<<static_cast<unsigned>((n_rows + 255) / 256), 256>>>(n_cols, n_rows, x, A, y);
}
