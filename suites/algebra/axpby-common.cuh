// Shared by axpby-f32 and axpby-bf16: z[i] = alpha * x[i] + beta * y[i] (BLAS axpby written out of place),
// one thread per element, scalar loads. Naive on purpose but obviously correct. BF16 values are widened
// to float, combined in float (a product and a fused multiply-add) and rounded once to BF16 on the store.
#pragma once
#include <cuda_bf16.h>

template <typename T>
__global__ void axpby_reference_kernel(T* z, const T* x, const T* y, float alpha, float beta, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = static_cast<T>(fmaf(alpha, static_cast<float>(x[i]), beta * static_cast<float>(y[i])));
}

template <typename T>
void axpby_reference(T* z, const T* x, const T* y, float alpha, float beta, int n) {
  if (n <= 0) return;
  int const block = 256;
  axpby_reference_kernel<T><<<(n + block - 1) / block, block>>>(z, x, y, alpha, beta, n);
}
