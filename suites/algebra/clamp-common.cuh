// Shared by clamp-f32 and clamp-bf16: y[i] = min(max(x[i], lo), hi) (torch.clamp / hardtanh with both
// bounds), one thread per element, scalar loads. Naive on purpose but obviously correct. BF16 values are
// widened to float, clamped in float and rounded back (exact: a clamped value is x or a bound rounded to
// BF16). The vendor baseline (thrust) is in clamp-thrust.cuh.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

template <typename T>
struct ClampOp {
  float lo;
  float hi;
  __host__ __device__ T operator()(T x) const {
    return static_cast<T>(fminf(fmaxf(static_cast<float>(x), lo), hi));
  }
};

template <typename T>
__global__ void clamp_reference_kernel(T* y, const T* x, float lo, float hi, int n) {
  int const i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = ClampOp<T>{lo, hi}(x[i]);
}

template <typename T>
void clamp_reference(T* y, const T* x, float lo, float hi, int n) {
  if (n <= 0) return;
  int const block = 256;
  clamp_reference_kernel<T><<<(n + block - 1) / block, block>>>(y, x, lo, hi, n);
}
