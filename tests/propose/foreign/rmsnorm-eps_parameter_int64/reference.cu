// RMSNorm with the given eps: one thread per row, the
// sum of squares and the outputs in double, each output rounded once.
#include <cstdint>

__global__ void rmsnorm_eps_kernel(float* out, const float* x, const float* w, int64_t n_rows, int64_t n_cols,
                                   float eps) {
  int64_t const row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= n_rows) return;
  const float* in = x + row * n_cols;
  float* y = out + row * n_cols;
  double squares = 0.0;
  for (int64_t j = 0; j < n_cols; ++j) squares += static_cast<double>(in[j]) * static_cast<double>(in[j]);
  double const inverse_rms = 1.0 / sqrt(squares / static_cast<double>(n_cols) + static_cast<double>(eps));
  for (int64_t j = 0; j < n_cols; ++j)
    y[j] = static_cast<float>(static_cast<double>(in[j]) * inverse_rms * static_cast<double>(w[j]));
}

extern "C" void rmsnorm_eps(float* out, const float* x, const float* w, int64_t n_rows, int64_t n_cols,
                            float eps) {
  if (n_rows <= 0 || n_cols <= 0) return;
  rmsnorm_eps_kernel<<<static_cast<unsigned>((n_rows + 31) / 32), 32>>>(out, x, w, n_rows, n_cols, eps);
}
