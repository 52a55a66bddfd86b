// Shared by vector_add-f32 and vector_add-bf16: c[i] = a[i] + b[i], one thread per element, scalar
// loads. Naive on purpose but obviously correct. BF16 values are widened to float, added in float and
// rounded once to BF16 on the store.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void vector_add_reference_kernel(T* c, const T* a, const T* b, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = static_cast<T>(static_cast<float>(a[i]) + static_cast<float>(b[i]));
}

template <typename T>
void vector_add_reference(T* c, const T* a, const T* b, int n) {
  if (n <= 0) return;
  int const block = 256;
  vector_add_reference_kernel<T><<<(n + block - 1) / block, block>>>(c, a, b, n);
}
