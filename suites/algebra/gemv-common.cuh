// Shared by gemv-f32 and gemv-bf16: y = A x with A row-major M x N. One thread per output row, each
// walking its whole row of A out of global memory (neighbouring threads read rows N elements apart, so
// loads are uncoalesced). The dot product is accumulated in double, which costs nothing in this
// memory-bound loop and keeps the reference the accurate side of every comparison, and rounded once to
// the output type. Naive on purpose but obviously correct.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void gemv_reference_kernel(T* y, const T* A, const T* x, int M, int N) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const T* a = A + static_cast<long long>(row) * N;
  double sum = 0.0;
  for (int j = 0; j < N; ++j)
    sum += static_cast<double>(static_cast<float>(a[j])) * static_cast<double>(static_cast<float>(x[j]));
  y[row] = static_cast<T>(sum);
}

template <typename T>
void gemv_reference(T* y, const T* A, const T* x, int M, int N) {
  if (M <= 0) return;
  int const block = 256;
  gemv_reference_kernel<T><<<(M + block - 1) / block, block>>>(y, A, x, M, N);
}
