// Shared by reverse-f32 and reverse-bf16: out[i] = in[n - 1 - i], out of place (torch.flip of a 1-D
// tensor). Reference: one thread per element, scalar loads and stores, naive on purpose but obviously
// correct. The vendor baseline (thrust) is in reverse-thrust.cuh.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

template <typename T>
__global__ void reverse_reference_kernel(T* out, const T* in, int n) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[n - 1 - i];
}

template <typename T>
void reverse_reference(T* out, const T* in, int n) {
  if (n <= 0) return;
  int const block = 256;
  reverse_reference_kernel<T><<<(n + block - 1) / block, block>>>(out, in, n);
}
