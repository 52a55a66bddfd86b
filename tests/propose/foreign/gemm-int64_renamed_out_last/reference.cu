// result = lhs * rhs, row-major: one thread per element of result, double accumulation, one rounding
// (the suite's gemm reference).
#include <cstdint>

__global__ void sgemm_rowmajor_kernel(const float* lhs, const float* rhs, float* result, int64_t rows,
                                      int64_t inner, int64_t cols) {
  int64_t const col = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t const row = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  if (row >= rows || col >= cols) return;
  double sum = 0.0;
  for (int64_t p = 0; p < inner; ++p)
    sum += static_cast<double>(lhs[row * inner + p]) * static_cast<double>(rhs[p * cols + col]);
  result[row * cols + col] = static_cast<float>(sum);
}

extern "C" void sgemm_rowmajor(const float* lhs, const float* rhs, float* result, int64_t rows, int64_t inner,
                               int64_t cols) {
  if (rows <= 0 || cols <= 0) return;
  dim3 const block(16, 16);
  dim3 const grid(static_cast<unsigned>((cols + 15) / 16), static_cast<unsigned>((rows + 15) / 16));
  sgemm_rowmajor_kernel<<<grid, block>>>(lhs, rhs, result, rows, inner, cols);
}
