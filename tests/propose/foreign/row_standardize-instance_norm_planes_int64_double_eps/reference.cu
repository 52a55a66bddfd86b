// InstanceNorm without affine parameters over (N*C) planes, as a PyTorch extension computes it: one block of
// 256 threads per plane, the mean and the biased variance in double (two passes, the partial sums added in a
// shared-memory tree), then the plane normalised with them.
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

__global__ void instance_norm_kernel(const float* input, float* output, int64_t plane_size, double eps) {
  __shared__ double partial[kThreads];
  const float* in = input + static_cast<int64_t>(blockIdx.x) * plane_size;
  float* out = output + static_cast<int64_t>(blockIdx.x) * plane_size;
  double sum = 0.0;
  for (int64_t i = threadIdx.x; i < plane_size; i += kThreads) sum += in[i];
  double const mean = block_sum(sum, partial) / static_cast<double>(plane_size);
  double squares = 0.0;
  for (int64_t i = threadIdx.x; i < plane_size; i += kThreads) {
    double const d = in[i] - mean;
    squares += d * d;
  }
  double const var = block_sum(squares, partial) / static_cast<double>(plane_size);
  double const rstd = 1.0 / sqrt(var + eps);
  for (int64_t i = threadIdx.x; i < plane_size; i += kThreads)
    out[i] = static_cast<float>((in[i] - mean) * rstd);
}

extern "C" void instance_norm_forward(const float* input, float* output, int64_t num_planes,
                                      int64_t plane_size, double eps) {
  if (num_planes <= 0 || plane_size <= 0) return;
  instance_norm_kernel<<<static_cast<unsigned>(num_planes), kThreads>>>(input, output, plane_size, eps);
}
