// Reference 1D convolution, shared by conv1d-{f32,bf16}: "same"-size cross-correlation with zero padding,
//   out[i] = sum_{k=0}^{K-1} w[k] * in[i + k - K/2]   (terms with i + k - K/2 outside [0, n) are 0),
// the convention of deep-learning convolution layers (no flip of w). One thread per output, the filter
// and the input window read straight from global memory, FP32 accumulation in k order, one rounding to
// the storage type. Naive on purpose: each input element is loaded K times.
#pragma once
#include "element.cuh"

template <typename T>
__global__ void conv1d_reference_kernel(T* out, const T* in, const T* w, int n, int K) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long const first = i - K / 2;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) {
    long long const j = first + k;
    if (j < 0 || j >= n) continue;
    sum += scientific_suite::to_float(w[k]) * scientific_suite::to_float(in[j]);
  }
  out[i] = scientific_suite::from_float<T>(sum);
}

template <typename T>
void conv1d_reference(T* out, const T* in, const T* w, int n, int K) {
  if (n <= 0) return;
  int const block = 256;
  int const grid = (n + block - 1) / block;
  conv1d_reference_kernel<T><<<grid, block>>>(out, in, w, n, K);
}
