// LayerNorm with the given epsilon (1e-5 in every size case, as the suite's layernorm): one thread per
// row, two-pass mean and biased variance and the outputs in double, each output rounded once.
#include <cstddef>

__global__ void layernorm_kernel(const float* X, const float* W, const float* B, float* Y, size_t M, size_t N,
                                 float epsilon) {
  size_t const row = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const float* in = X + row * N;
  float* out = Y + row * N;
  double sum = 0.0;
  for (size_t j = 0; j < N; ++j) sum += static_cast<double>(in[j]);
  double const mean = sum / static_cast<double>(N);
  double squares = 0.0;
  for (size_t j = 0; j < N; ++j) {
    double const d = static_cast<double>(in[j]) - mean;
    squares += d * d;
  }
  double const rstd = 1.0 / sqrt(squares / static_cast<double>(N) + static_cast<double>(epsilon));
  for (size_t j = 0; j < N; ++j) {
    out[j] = static_cast<float>((static_cast<double>(in[j]) - mean) * rstd * static_cast<double>(W[j]) +
                                static_cast<double>(B[j]));
  }
}

extern "C" void LayerNormKernelLauncher(const float* X, const float* W, const float* B, float* Y, size_t M,
                                        size_t N, float epsilon) {
  if (M == 0 || N == 0) return;
  layernorm_kernel<<<static_cast<unsigned>((M + 31) / 32), 32>>>(X, W, B, Y, M, N, epsilon);
}
