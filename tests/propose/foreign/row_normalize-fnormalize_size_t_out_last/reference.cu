// F.normalize(x, p=2, dim=-1): one block of 256 threads per row sums the squares in double (a
// shared-memory tree), then divides each element by max(norm, 1e-12) in double.
#include <cstddef>

constexpr int kThreads = 256;

__global__ void l2_normalize_rows_kernel(const float* input, size_t dim, float* output) {
  __shared__ double partial[kThreads];
  const float* in = input + static_cast<size_t>(blockIdx.x) * dim;
  float* out = output + static_cast<size_t>(blockIdx.x) * dim;
  double squares = 0.0;
  for (size_t j = threadIdx.x; j < dim; j += kThreads) squares += static_cast<double>(in[j]) * in[j];
  partial[threadIdx.x] = squares;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  double const norm = fmax(sqrt(partial[0]), 1e-12);
  for (size_t j = threadIdx.x; j < dim; j += kThreads) out[j] = static_cast<float>(in[j] / norm);
}

extern "C" void l2_normalize_rows(const float* input, size_t num_rows, size_t dim, float* output) {
  if (num_rows == 0 || dim == 0) return;
  l2_normalize_rows_kernel<<<static_cast<unsigned>(num_rows), kThreads>>>(input, dim, output);
}
