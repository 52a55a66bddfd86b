// RMSNorm in Apex's argument order (cuda_rms_norm: output, invvar, input, n1, n2, gamma, epsilon), BF16 data
// and FP32 statistics: invvar[r] = 1 / sqrt(mean(x^2) + epsilon) is kept for the backward pass.
#include <cuda_bf16.h>

constexpr int kThreads = 256;

__global__ void rms_norm_rows(__nv_bfloat16* output, float* invvar, const __nv_bfloat16* input, int n2,
                              const __nv_bfloat16* gamma, float epsilon) {
  __shared__ float shared[kThreads];
  long long const row = static_cast<long long>(blockIdx.x) * n2;
  float squares = 0.0f;
  for (int j = threadIdx.x; j < n2; j += kThreads) {
    float const x = __bfloat162float(input[row + j]);
    squares += x * x;
  }
  shared[threadIdx.x] = squares;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
    __syncthreads();
  }
  float const inv = 1.0f / sqrtf(shared[0] / static_cast<float>(n2) + epsilon);
  for (int j = threadIdx.x; j < n2; j += kThreads)
    output[row + j] = __float2bfloat16(__bfloat162float(input[row + j]) * inv * __bfloat162float(gamma[j]));
  if (threadIdx.x == 0) invvar[blockIdx.x] = inv;
}

extern "C" void cuda_rms_norm(__nv_bfloat16* output, float* invvar, const __nv_bfloat16* input, int n1,
                              int n2, const __nv_bfloat16* gamma, double epsilon) {
  if (n1 <= 0 || n2 <= 0) return;
  rms_norm_rows<<<n1, kThreads>>>(output, invvar, input, n2, gamma, static_cast<float>(epsilon));
}
