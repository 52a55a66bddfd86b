// Shared by scan-f32 and scan-bf16: inclusive prefix sum, out[i] = in[0] + ... + in[i].
// One thread per output would cost O(n^2), so the reference works on chunks of 1024 elements in three
// plain kernels, every sum in double and each output rounded once:
//   1. one thread per chunk adds up its chunk;
//   2. a single thread turns the chunk sums into exclusive chunk offsets, in order;
//   3. one thread per chunk walks its chunk again from its offset, writing the running sum.
// The chunk sums need scratch: a fixed __device__ array sized for the largest int n (16 MiB), so the
// launcher allocates nothing. Uncoalesced (neighbouring threads are a chunk apart) and slow on purpose,
// but obviously correct and deterministic.
#pragma once
#include <cuda_bf16.h>

constexpr int kScanReferenceChunk = 1024;
constexpr int kScanReferenceMaxChunks = (2147483647 / kScanReferenceChunk) + 1;

__device__ double scan_reference_chunk_offsets[kScanReferenceMaxChunks];

template <typename T>
__global__ void scan_reference_chunk_sums(const T* in, int n, int chunks) {
  int const c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= chunks) return;
  long long const begin = static_cast<long long>(c) * kScanReferenceChunk;
  long long const end = begin + kScanReferenceChunk < n ? begin + kScanReferenceChunk : n;
  double sum = 0.0;
  for (long long i = begin; i < end; ++i) sum += static_cast<double>(static_cast<float>(in[i]));
  scan_reference_chunk_offsets[c] = sum;
}

__global__ void scan_reference_chunk_offsets_kernel(int chunks) {
  double running = 0.0;
  for (int c = 0; c < chunks; ++c) {
    double const chunk_sum = scan_reference_chunk_offsets[c];
    scan_reference_chunk_offsets[c] = running;
    running += chunk_sum;
  }
}

template <typename T>
__global__ void scan_reference_chunk_scan(T* out, const T* in, int n, int chunks) {
  int const c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= chunks) return;
  long long const begin = static_cast<long long>(c) * kScanReferenceChunk;
  long long const end = begin + kScanReferenceChunk < n ? begin + kScanReferenceChunk : n;
  double running = scan_reference_chunk_offsets[c];
  for (long long i = begin; i < end; ++i) {
    running += static_cast<double>(static_cast<float>(in[i]));
    out[i] = static_cast<T>(running);
  }
}

template <typename T>
void scan_reference(T* out, const T* in, int n) {
  if (n <= 0) return;
  int const chunks =
      static_cast<int>((static_cast<long long>(n) + kScanReferenceChunk - 1) / kScanReferenceChunk);
  int const block = 128;
  int const grid = (chunks + block - 1) / block;
  scan_reference_chunk_sums<T><<<grid, block>>>(in, n, chunks);
  scan_reference_chunk_offsets_kernel<<<1, 1>>>(chunks);
  scan_reference_chunk_scan<T><<<grid, block>>>(out, in, n, chunks);
}
