// GroupNorm's forward after aten's names: one block of 256 threads per (n, group) slab of
// (C/group)*HxW contiguous elements, the mean and the biased variance in double (two passes, the partial
// sums added in a shared-memory tree), then each element normalised and scaled by its channel's gamma and
// beta.
#include <cstdint>

constexpr int kThreads = 256;

// The sum of every thread's value over the block; all threads get it.
__device__ double block_sum(double value, double* partial) {
  partial[threadIdx.x] = value;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  double const total = partial[0];
  __syncthreads();
  return total;
}

__global__ void group_norm_kernel(const float* X, const float* gamma, const float* beta, int64_t C,
                                  int64_t HxW, int64_t group, double eps, float* Y) {
  __shared__ double partial[kThreads];
  int64_t const slab = blockIdx.x;  // n * group + g
  int64_t const channels_per_group = C / group;
  int64_t const slab_size = channels_per_group * HxW;
  int64_t const first_channel = slab % group * channels_per_group;
  const float* x = X + slab * slab_size;
  float* y = Y + slab * slab_size;
  double sum = 0.0;
  for (int64_t i = threadIdx.x; i < slab_size; i += kThreads) sum += x[i];
  double const mean = block_sum(sum, partial) / static_cast<double>(slab_size);
  double squares = 0.0;
  for (int64_t i = threadIdx.x; i < slab_size; i += kThreads) {
    double const d = x[i] - mean;
    squares += d * d;
  }
  double const var = block_sum(squares, partial) / static_cast<double>(slab_size);
  double const rstd = 1.0 / sqrt(var + eps);
  for (int64_t i = threadIdx.x; i < slab_size; i += kThreads) {
    int64_t const c = first_channel + i / HxW;
    y[i] = static_cast<float>((x[i] - mean) * rstd * gamma[c] + beta[c]);
  }
}

extern "C" void group_norm_forward(const float* X, const float* gamma, const float* beta, int64_t N,
                                   int64_t C, int64_t HxW, int64_t group, double eps, float* Y) {
  if (N <= 0 || C <= 0 || HxW <= 0 || group <= 0 || C % group != 0) return;
  group_norm_kernel<<<static_cast<unsigned>(N * group), kThreads>>>(X, gamma, beta, C, HxW, group, eps, Y);
}
