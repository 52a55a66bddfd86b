// Shared by axpy-f32 and axpy-bf16: z[i] = alpha * x[i] + y[i] (axpy out of place), one thread per
// element, scalar loads. Naive on purpose but obviously correct. BF16 values are widened to
// float, combined in float (one fused multiply-add) and rounded once to BF16 on the store.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void axpy_reference_kernel(T* z, const T* x, const T* y, float alpha, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = static_cast<T>(fmaf(alpha, static_cast<float>(x[i]), static_cast<float>(y[i])));
}

template <typename T>
void axpy_reference(T* z, const T* x, const T* y, float alpha, int n) {
  if (n <= 0) return;
  int const block = 256;
  axpy_reference_kernel<T><<<(n + block - 1) / block, block>>>(z, x, y, alpha, n);
}
