// A sum whose launcher takes the caller's stream, as library C APIs do: the output is cleared and added
// into with one atomicAdd per block, all on `stream`.
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void sum_kernel(const float* values, float* total, int count) {
  __shared__ float shared[kThreads];
  float sum = 0.0f;
  for (int i = blockIdx.x * kThreads + threadIdx.x; i < count; i += gridDim.x * kThreads) sum += values[i];
  shared[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) shared[threadIdx.x] += shared[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(total, shared[0]);
}

extern "C" void sum_async(const float* values, int count, float* total, cudaStream_t stream) {
  cudaMemsetAsync(total, 0, sizeof(float), stream);
  if (count <= 0) return;
  int const blocks = (count + kThreads - 1) / kThreads < 512 ? (count + kThreads - 1) / kThreads : 512;
  sum_kernel<<<blocks, kThreads, 0, stream>>>(values, total, count);
}
