// Maximum of series[offset .. offset + len): one block, a strided share per thread, then a tree.
__global__ void window_max_kernel(const float* series, int offset, int len, float* result) {
  __shared__ float partial[256];
  float best = -INFINITY;
  for (int i = threadIdx.x; i < len; i += blockDim.x) best = fmaxf(best, series[offset + i]);
  partial[threadIdx.x] = best;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = partial[0];
}

extern "C" void window_max(const float* series, int total, int offset, int len, float* result) {
  (void)total;
  window_max_kernel<<<1, 256>>>(series, offset, len, result);
}
