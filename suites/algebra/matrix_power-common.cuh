// Shared by matrix_power-f32 and matrix_power-bf16: out = A^p for a row-major n x n matrix A and an integer
// p (p = 0 gives the identity, A^0; a negative p is treated as 0: no inverse). The reference multiplies by A
// p - 1 times, R_1 = A, R_{k+1} = R_k * A, with one thread per element of the product running the whole K
// loop out of global memory. FP32 accumulation with FP32 intermediates is the contract; the reference
// accumulates in double and keeps its intermediates in double (two n x n double matrices of a grow-only
// workspace) so that it is the accurate side of every comparison, and rounds once to the output type.
// Naive on purpose but obviously correct. The baselines' squaring schedule is here too.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>

namespace matrix_power_suite {

// A grow-only device buffer (one per call site): allocated on first use, reallocated when more is needed.
inline void* grow(void*& buffer, size_t& capacity, size_t bytes) {
  if (bytes > capacity) {
    if (buffer != nullptr) cudaFree(buffer);
    buffer = nullptr;
    capacity = 0;
    if (cudaMalloc(&buffer, bytes) != cudaSuccess) {
      std::fprintf(stderr, "matrix_power: cudaMalloc of %zu bytes failed\n", bytes);
      buffer = nullptr;
      return nullptr;
    }
    capacity = bytes;
  }
  return buffer;
}

// Calls product(square, last) for each product of A^p, p >= 2, in order: R = A, then for each bit of p
// below the leading one, R = R * R (square) and, when the bit is set, R = R * A; `last` marks the final
// product. floor(log2 p) + popcount(p) - 1 products.
template <typename Product>
void for_each_squaring_product(int p, Product product) {
  int top = 30;
  while (((p >> top) & 1) == 0) --top;
  int remaining = top;
  for (int bit = top - 1; bit >= 0; --bit) remaining += (p >> bit) & 1;
  for (int bit = top - 1; bit >= 0; --bit) {
    product(true, --remaining == 0);
    if (((p >> bit) & 1) != 0) product(false, --remaining == 0);
  }
}

}  // namespace matrix_power_suite

// R = A (p >= 1) or the identity (p <= 0), in double.
template <typename T>
__global__ void matrix_power_start_kernel(double* R, const T* A, int n, int p) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(n) * n) return;
  R[i] = p >= 1 ? static_cast<double>(static_cast<float>(A[i])) : (i / n == i % n ? 1.0 : 0.0);
}

// next = R * A: one thread per element, double accumulation.
template <typename T>
__global__ void matrix_power_step_kernel(double* next, const double* R, const T* A, int n) {
  int const col = blockIdx.x * blockDim.x + threadIdx.x;
  int const row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  double sum = 0.0;
  for (int k = 0; k < n; ++k)
    sum += R[static_cast<long long>(row) * n + k] *
           static_cast<double>(static_cast<float>(A[static_cast<long long>(k) * n + col]));
  next[static_cast<long long>(row) * n + col] = sum;
}

// out = R rounded once to T.
template <typename T>
__global__ void matrix_power_finish_kernel(T* out, const double* R, int n) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(n) * n) return;
  out[i] = static_cast<T>(R[i]);
}

template <typename T>
void matrix_power_reference(T* out, const T* A, int n, int p) {
  if (n <= 0) return;
  static void* buffer = nullptr;
  static size_t capacity = 0;
  size_t const count = static_cast<size_t>(n) * n;
  auto* R = static_cast<double*>(matrix_power_suite::grow(buffer, capacity, 2 * count * sizeof(double)));
  if (R == nullptr) return;  // out stays poisoned: the failure is visible
  double* next = R + count;
  unsigned const flat_blocks = static_cast<unsigned>((count + 255) / 256);
  matrix_power_start_kernel<T><<<flat_blocks, 256>>>(R, A, n, p);
  dim3 const block(16, 16);
  dim3 const grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
  for (int k = 1; k < p; ++k) {
    matrix_power_step_kernel<T><<<grid, block>>>(next, R, A, n);
    double* const t = R;
    R = next;
    next = t;
  }
  matrix_power_finish_kernel<T><<<flat_blocks, 256>>>(out, R, n);
}
