// *result = sum_i values[i]: one block of 1024 threads, per-thread double sums of the widened values, a
// fixed shared-memory tree, one rounding to BF16 (the suite's reduce_sum reference).
#include <cuda_bf16.h>

#include <cstdint>

constexpr int kThreads = 1024;

__global__ void reduce_bf16_kernel(__nv_bfloat16* result, int64_t n, const __nv_bfloat16* values) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (int64_t i = threadIdx.x; i < n; i += blockDim.x)
    sum += static_cast<double>(__bfloat162float(values[i]));
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *result = __double2bfloat16(partial[0]);
}

extern "C" void reduce_bf16(__nv_bfloat16* result, int64_t n, const __nv_bfloat16* values) {
  reduce_bf16_kernel<<<1, kThreads>>>(result, n < 0 ? 0 : n, values);
}
