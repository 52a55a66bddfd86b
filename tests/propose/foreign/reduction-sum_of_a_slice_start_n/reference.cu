// Sum of values[start .. start + n): one block, each thread sums a strided share in double, then a
// shared-memory tree; one rounding.
__global__ void sum_window_kernel(float* out, const float* values, int start, int n) {
  __shared__ double partial[256];
  double sum = 0.0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) sum += values[start + i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = static_cast<float>(partial[0]);
}

extern "C" void sum_window(float* out, const float* values, int start, int n) {
  sum_window_kernel<<<1, 256>>>(out, values, start, n);
}
