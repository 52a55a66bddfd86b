// *s = sum of the rows*cols elements in memory order: one block of 1024 threads, per-thread double sums,
// a fixed shared-memory tree, one rounding (the suite's reduce_sum reference).
constexpr int kThreads = 1024;

__global__ void matrix_sum_kernel(const float* m, float* s, long long count) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (long long i = threadIdx.x; i < count; i += blockDim.x) sum += static_cast<double>(m[i]);
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *s = static_cast<float>(partial[0]);
}

extern "C" void matrix_sum(const float* m, float* s, int rows, int cols) {
  long long const count = rows > 0 && cols > 0 ? static_cast<long long>(rows) * cols : 0;
  matrix_sum_kernel<<<1, kThreads>>>(m, s, count);
}
