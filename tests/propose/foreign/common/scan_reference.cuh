// The inclusive prefix sum the suite's scan reference computes, shared by the scan cases' references:
// chunks of 1024 elements, (1) one thread per chunk sums its chunk, (2) one thread turns the chunk sums
// into exclusive offsets in order, (3) one thread per chunk rescans its chunk from its offset; every sum in
// double, each output rounded once.
#pragma once

#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>

namespace scan_reference {

constexpr long long kChunk = 1024;
constexpr long long kMaxChunks = (2147483647LL / kChunk) + 1;

__device__ double chunk_offsets[kMaxChunks];

__device__ __forceinline__ double widen(float v) {
  return static_cast<double>(v);
}
__device__ __forceinline__ double widen(__nv_bfloat16 v) {
  return static_cast<double>(__bfloat162float(v));
}
__device__ __forceinline__ void store(float* p, double v) {
  *p = static_cast<float>(v);
}
__device__ __forceinline__ void store(__nv_bfloat16* p, double v) {
  *p = __double2bfloat16(v);
}

template <typename T>
__global__ void chunk_sums(const T* in, long long n, long long chunks) {
  long long const c = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= chunks) return;
  long long const begin = c * kChunk;
  long long const end = begin + kChunk < n ? begin + kChunk : n;
  double sum = 0.0;
  for (long long i = begin; i < end; ++i) sum += widen(in[i]);
  chunk_offsets[c] = sum;
}

__global__ void chunk_offsets_kernel(long long chunks) {
  double running = 0.0;
  for (long long c = 0; c < chunks; ++c) {
    double const chunk_sum = chunk_offsets[c];
    chunk_offsets[c] = running;
    running += chunk_sum;
  }
}

template <typename T>
__global__ void chunk_scan(T* out, const T* in, long long n, long long chunks) {
  long long const c = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= chunks) return;
  long long const begin = c * kChunk;
  long long const end = begin + kChunk < n ? begin + kChunk : n;
  double running = chunk_offsets[c];
  for (long long i = begin; i < end; ++i) {
    running += widen(in[i]);
    store(&out[i], running);
  }
}

template <typename T>
void inclusive_scan(T* out, const T* in, long long n) {
  if (n <= 0) return;
  long long const chunks = (n + kChunk - 1) / kChunk;
  int const block = 128;
  unsigned const grid = static_cast<unsigned>((chunks + block - 1) / block);
  chunk_sums<T><<<grid, block>>>(in, n, chunks);
  chunk_offsets_kernel<<<1, 1>>>(chunks);
  chunk_scan<T><<<grid, block>>>(out, in, n, chunks);
}

}  // namespace scan_reference
