// *result = sum of squared differences: one block of 1024 threads, per-thread double sums, a fixed
// shared-memory tree, one rounding.
constexpr int kThreads = 1024;

__global__ void sse_kernel(int count, const float* a, const float* b, float* result) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) {
    double const d = static_cast<double>(a[i]) - static_cast<double>(b[i]);
    sum += d * d;
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = static_cast<float>(partial[0]);
}

extern "C" void sum_sq_err(int count, const float* a, const float* b, float* result) {
  sse_kernel<<<1, kThreads>>>(count, a, b, result);
}
