// *result = sum_i u[i] * v[i]: one block of 1024 threads, per-thread double sums of the widened values,
// a fixed shared-memory tree, one rounding to BF16 (the suite's dot reference).
#include <cuda_bf16.h>

constexpr int kThreads = 1024;

__global__ void dot_bf16_kernel(int n, const __nv_bfloat16* u, const __nv_bfloat16* v,
                                __nv_bfloat16* result) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (long long i = threadIdx.x; i < n; i += blockDim.x)
    sum += static_cast<double>(__bfloat162float(u[i])) * static_cast<double>(__bfloat162float(v[i]));
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = __double2bfloat16(partial[0]);
}

extern "C" void dot_bf16(int n, const __nv_bfloat16* u, const __nv_bfloat16* v, __nv_bfloat16* result) {
  dot_bf16_kernel<<<1, kThreads>>>(n < 0 ? 0 : n, u, v, result);
}
