// acc[h] = gain * x[h] * w[h] + keep * acc[h], row-major FP32: one thread per element of acc, blockIdx.z = h,
// double accumulation, one rounding.
#include <cstddef>

__global__ void head_project_accumulate_kernel(float* acc, const float* x, const float* w, float gain,
                                               float keep, size_t seq, size_t dim, size_t out_dim) {
  size_t const col = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  size_t const row = static_cast<size_t>(blockIdx.y) * blockDim.y + threadIdx.y;
  size_t const h = blockIdx.z;
  if (row >= seq || col >= out_dim) return;
  const float* a = x + h * seq * dim;
  const float* b = w + h * dim * out_dim;
  double sum = 0.0;
  for (size_t j = 0; j < dim; ++j)
    sum += static_cast<double>(a[row * dim + j]) * static_cast<double>(b[j * out_dim + col]);
  float* out = acc + h * seq * out_dim + row * out_dim + col;
  *out = static_cast<float>(static_cast<double>(gain) * sum + static_cast<double>(keep) * *out);
}

void head_project_accumulate(float* __restrict__ acc, const float* __restrict__ x,
                             const float* __restrict__ w, const float gain, const float keep, size_t heads,
                             size_t seq, size_t dim, size_t out_dim) {
  if (heads == 0 || seq == 0 || out_dim == 0) return;
  dim3 const block(16, 16);
  dim3 const grid(static_cast<unsigned>((out_dim + 15) / 16), static_cast<unsigned>((seq + 15) / 16),
                  static_cast<unsigned>(heads));
  head_project_accumulate_kernel<<<grid, block>>>(acc, x, w, gain, keep, seq, dim, out_dim);
}
