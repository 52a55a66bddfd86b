// KL divergence (mean): one block of 1024 threads, per-thread double sums, a fixed shared-memory tree,
// one division and one rounding to BF16.
#include <cuda_bf16.h>

#include <cstdint>

constexpr int kThreads = 1024;

__global__ void kl_div_kernel(__nv_bfloat16* out, const __nv_bfloat16* log_probs, const __nv_bfloat16* target,
                              int64_t numel) {
  __shared__ double partial[kThreads];
  double sum = 0.0;
  for (int64_t i = threadIdx.x; i < numel; i += blockDim.x) {
    double const t = static_cast<double>(__bfloat162float(target[i]));
    sum += t * (log(t) - static_cast<double>(__bfloat162float(log_probs[i])));
  }
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = __double2bfloat16(partial[0] / static_cast<double>(numel));
}

extern "C" void kl_div_bf16(__nv_bfloat16* out, const __nv_bfloat16* log_probs, const __nv_bfloat16* target,
                            int64_t numel) {
  kl_div_kernel<<<1, kThreads>>>(out, log_probs, target, numel);
}
