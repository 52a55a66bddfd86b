// LayerNorm as the Triton tutorial's _layer_norm_fwd_fused computes it, written in CUDA: X, Y, W, B, then
// FP32 Mean and Rstd per row, M rows of N values. One block per row; FP32 statistics, each output
// rounded once to BF16.
#include <cuda_bf16.h>

constexpr int kThreads = 256;

__device__ float block_sum(float value, float* shared) {
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
    __syncthreads();
  }
  float const total = shared[0];
  __syncthreads();
  return total;
}

__global__ void layer_norm_fwd_fused(const __nv_bfloat16* X, __nv_bfloat16* Y, const __nv_bfloat16* W,
                                     const __nv_bfloat16* B, float* Mean, float* Rstd, int N, float eps) {
  __shared__ float shared[kThreads];
  long long const row = static_cast<long long>(blockIdx.x) * N;
  float sum = 0.0f;
  for (int j = threadIdx.x; j < N; j += kThreads) sum += __bfloat162float(X[row + j]);
  float const mean = block_sum(sum, shared) / static_cast<float>(N);
  float var = 0.0f;
  for (int j = threadIdx.x; j < N; j += kThreads) {
    float const d = __bfloat162float(X[row + j]) - mean;
    var += d * d;
  }
  float const rstd = 1.0f / sqrtf(block_sum(var, shared) / static_cast<float>(N) + eps);
  for (int j = threadIdx.x; j < N; j += kThreads) {
    float const x_hat = (__bfloat162float(X[row + j]) - mean) * rstd;
    Y[row + j] = __float2bfloat16(x_hat * __bfloat162float(W[j]) + __bfloat162float(B[j]));
  }
  if (threadIdx.x == 0) {
    Mean[blockIdx.x] = mean;
    Rstd[blockIdx.x] = rstd;
  }
}

extern "C" void layer_norm_fwd(const __nv_bfloat16* X, __nv_bfloat16* Y, const __nv_bfloat16* W,
                               const __nv_bfloat16* B, float* Mean, float* Rstd, int M, int N, float eps) {
  if (M <= 0 || N <= 0) return;
  layer_norm_fwd_fused<<<M, kThreads>>>(X, Y, W, B, Mean, Rstd, N, eps);
}
