// Shared by col_sum-f32 and col_sum-bf16: out[c] = sum_r in[r*cols + c] for a row-major rows x cols
// matrix. One thread per column, walking its whole column out of global memory (neighbouring threads read
// neighbouring columns, so a warp's loads are coalesced, but with few columns few threads run). The sum
// is accumulated in double, which keeps the reference the accurate side of every comparison, and rounded
// once to the output type. Naive on purpose but obviously correct.
//
// Also the baselines' ones vector (a column sum is a matrix-vector product with ones): one device buffer
// per element type, filled once and grown (never per call) when a larger size case needs more; the first
// call of each size case runs outside graph capture.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>

template <typename T>
__global__ void col_sum_reference_kernel(T* out, const T* in, int rows, int cols) {
  long long const col = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col >= cols) return;
  double sum = 0.0;
  for (long long r = 0; r < rows; ++r) sum += static_cast<double>(static_cast<float>(in[r * cols + col]));
  out[col] = static_cast<T>(sum);
}

template <typename T>
void col_sum_reference(T* out, const T* in, int rows, int cols) {
  if (cols <= 0) return;
  int const block = 128;
  col_sum_reference_kernel<T><<<(cols + block - 1) / block, block>>>(out, in, rows < 0 ? 0 : rows, cols);
}

namespace kopt_suite {

template <typename T>
__global__ void fill_ones_kernel(T* v, int n) {
  int const i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) v[i] = static_cast<T>(1.0f);
}

// At least n ones of type T in device memory, or nullptr after printing why.
template <typename T>
T const* ones_vector(int n) {
  static T* buffer = nullptr;
  static int capacity = 0;
  if (n < 1) n = 1;
  if (n > capacity) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, static_cast<size_t>(n) * sizeof(T)) != cudaSuccess) {
      std::fprintf(stderr, "baseline_cublas.cu: cudaMalloc of the ones vector failed\n");
      return nullptr;
    }
    fill_ones_kernel<T><<<(n + 255) / 256, 256, 0, cudaStreamPerThread>>>(buffer, n);
    if (cudaStreamSynchronize(cudaStreamPerThread) != cudaSuccess) {
      std::fprintf(stderr, "baseline_cublas.cu: filling the ones vector failed\n");
      cudaFree(buffer);
      buffer = nullptr;
      return nullptr;
    }
    capacity = n;
  }
  return buffer;
}

}  // namespace kopt_suite
