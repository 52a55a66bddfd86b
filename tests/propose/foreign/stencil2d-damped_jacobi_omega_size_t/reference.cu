// Damped Jacobi sweep, one thread per point, FP32 in the described order.
#include <cstddef>

__global__ void damped_jacobi_kernel(float* x_new, const float* x, size_t rows, size_t cols, float keep,
                                     float quarter_omega) {
  size_t const c = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  size_t const r = static_cast<size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (c >= cols || r >= rows) return;
  size_t const i = r * cols + c;
  if (c == 0 || r == 0 || c == cols - 1 || r == rows - 1) {
    x_new[i] = x[i];
    return;
  }
  float const sum = x[i - 1] + x[i + 1] + x[i - cols] + x[i + cols];
  x_new[i] = keep * x[i] + quarter_omega * sum;
}

void damped_jacobi(float* __restrict__ x_new, const float* __restrict__ x, size_t rows, size_t cols,
                   float keep, float quarter_omega) {
  if (rows == 0 || cols == 0) return;
  dim3 const block(32, 8);
  dim3 const grid(static_cast<unsigned>((cols + 31) / 32), static_cast<unsigned>((rows + 7) / 8));
  damped_jacobi_kernel<<<grid, block>>>(x_new, x, rows, cols, keep, quarter_omega);
}
