// *out = sum_i a[i] * b[i]: one block of 1024 threads, per-thread double sums, a fixed shared-memory tree,
// one rounding (the suite's dot reference).
#include <cstddef>

constexpr int kThreads = 1024;

__global__ void sdot_kernel(const float* a, const float* b, float* out, size_t len) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (size_t i = threadIdx.x; i < len; i += blockDim.x)
    sum += static_cast<double>(a[i]) * static_cast<double>(b[i]);
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = static_cast<float>(partial[0]);
}

extern "C" void sdot(const float* a, const float* b, float* out, size_t len) {
  sdot_kernel<<<1, kThreads>>>(a, b, out, len);
}
