// Purpose-built kernels, one per bottleneck or finding that kopt's analysis must recognise (issue #4):
// run once each under Nsight Compute (bench/analysis_capture/capture.sh) to capture real H200 metrics,
// SASS and ptxas output as parser and tool fixtures. Each kernel is launched exactly once per run.
//   streaming_copy    memory-bound, float4, coalesced          -> memory_bound (DRAM), no findings
//   strided_copy      stride-33 float loads                     -> uncoalesced global access
//   bank_conflicts    32-way shared-memory bank conflicts       -> shared bank conflicts
//   divergent         half of each warp takes another path      -> warp divergence
//   spilling          a large, dynamically indexed local array  -> local memory / spills
//   ffma_loop         long dependent-free FFMA chains            -> compute-bound
//   tiny_grid         one block of 128 threads                   -> small grid
//   atomic_hotspot    every thread adds to one address          -> atomics contention
//   scalar_copy       memory-bound with 32-bit loads             -> unvectorized access
//   register_spill    64 live accumulators under __launch_bounds__(1024, 2) -> register spills
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

__global__ void streaming_copy(float4* __restrict__ out, const float4* __restrict__ in, int n4) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) out[i] = in[i];
}

__global__ void scalar_copy(float* __restrict__ out, const float* __restrict__ in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i];
}

__global__ void strided_copy(float* __restrict__ out, const float* __restrict__ in, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(static_cast<long long>(i) * 33) % n];
}

__global__ void bank_conflicts(float* out, int iterations) {
  __shared__ float tile[32 * 32];
  int const t = threadIdx.x;
  for (int k = t; k < 32 * 32; k += blockDim.x) tile[k] = static_cast<float>(k);
  __syncthreads();
  float acc = 0.0f;
  for (int it = 0; it < iterations; ++it) acc += tile[(t % 32) * 32 + (it % 32)];  // same bank per warp
  out[blockIdx.x * blockDim.x + t] = acc;
}

__global__ void divergent(float* out, const float* in, int n, int iterations) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  if (threadIdx.x % 2 == 0) {
    for (int it = 0; it < iterations; ++it) x = x * 1.0001f + 0.5f;
  } else {
    for (int it = 0; it < iterations; ++it) x = x * 0.9999f - 0.25f;
  }
  out[i] = x;
}

__global__ void spilling(float* out, const int* index, int n) {
  float local[256];
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 256; ++k) local[k] = static_cast<float>(k + i);
  float acc = 0.0f;
  for (int k = 0; k < 64; ++k) acc += local[index[(i + k) % n] & 255];
  if (i < n) out[i] = acc;
}

__global__ void __launch_bounds__(1024, 2) register_spill(float* out, const float* in, int n) {
  float acc[64];
#pragma unroll
  for (int k = 0; k < 64; ++k) acc[k] = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float const x = in[i];
#pragma unroll
    for (int k = 0; k < 64; ++k) acc[k] = fmaf(acc[k], x, static_cast<float>(k));
  }
  float total = 0.0f;
#pragma unroll
  for (int k = 0; k < 64; ++k) total += acc[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}

__global__ void ffma_loop(float* out, int iterations) {
  float a = threadIdx.x * 1e-3f, b = a + 1.0f, c = a + 2.0f, d = a + 3.0f;
  for (int it = 0; it < iterations; ++it) {
    a = fmaf(a, 0.9999f, 0.0001f);
    b = fmaf(b, 0.9999f, 0.0001f);
    c = fmaf(c, 0.9999f, 0.0001f);
    d = fmaf(d, 0.9999f, 0.0001f);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d;
}

__global__ void tiny_grid(float* out, const float* in, int n) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
  out[threadIdx.x] = acc;
}

__global__ void atomic_hotspot(float* sum, const float* in, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, in[i]);
}

int main() {
  int const n = 1 << 26;  // 256 MiB per float buffer: > 4x the 60 MiB L2
  float *a = nullptr, *b = nullptr;
  int* index = nullptr;
  CHECK(cudaMalloc(&a, sizeof(float) * n));
  CHECK(cudaMalloc(&b, sizeof(float) * n));
  CHECK(cudaMalloc(&index, sizeof(int) * n));
  CHECK(cudaMemset(a, 0, sizeof(float) * n));
  CHECK(cudaMemset(index, 0, sizeof(int) * n));
  int const blocks = 132 * 8;
  streaming_copy<<<blocks, 256>>>(reinterpret_cast<float4*>(b), reinterpret_cast<const float4*>(a), n / 4);
  scalar_copy<<<blocks, 256>>>(b, a, n);
  strided_copy<<<(n + 255) / 256, 256>>>(b, a, n);
  bank_conflicts<<<blocks, 256>>>(b, 4096);
  divergent<<<(n / 16 + 255) / 256, 256>>>(b, a, n / 16, 256);
  spilling<<<(n / 64 + 255) / 256, 256>>>(b, index, n / 64);
  register_spill<<<264, 1024>>>(b, a, n / 16);
  ffma_loop<<<blocks * 4, 256>>>(b, 20000);
  tiny_grid<<<1, 128>>>(b, a, 1 << 20);
  atomic_hotspot<<<(n / 16 + 255) / 256, 256>>>(b, a, n / 16);
  CHECK(cudaDeviceSynchronize());
  std::puts("analysis kernels: done");
  return 0;
}
