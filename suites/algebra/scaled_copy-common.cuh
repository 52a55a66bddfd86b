// Shared by scaled_copy-f32 and scaled_copy-bf16: y[i] = a * x[i], one thread per element, scalar
// loads. Naive on purpose but obviously correct. BF16 values are widened to float, scaled in float and
// rounded once to BF16 on the store.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void scaled_copy_reference_kernel(T* y, const T* x, float a, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = static_cast<T>(a * static_cast<float>(x[i]));
}

template <typename T>
void scaled_copy_reference(T* y, const T* x, float a, int n) {
  if (n <= 0) return;
  int const block = 256;
  scaled_copy_reference_kernel<T><<<(n + block - 1) / block, block>>>(y, x, a, n);
}
