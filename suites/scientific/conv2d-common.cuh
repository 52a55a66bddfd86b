// Reference 2D convolution, shared by conv2d-{f32,bf16}: one channel, a row-major H x W image and a
// row-major K x K filter, "same"-size cross-correlation with zero padding,
//   out[y][x] = sum_{ky,kx=0}^{K-1} w[ky][kx] * in[y + ky - K/2][x + kx - K/2]
// (terms whose input position lies outside the image are 0), the convention of deep-learning
// convolution layers (no flip of w). One thread per output, the filter and the input window read
// straight from global memory, FP32 accumulation in (ky, kx) order, one rounding to the storage type.
// Naive on purpose: each input element is loaded K*K times.
#pragma once
#include "element.cuh"

template <typename T>
__global__ void conv2d_reference_kernel(T* out, const T* in, const T* w, int H, int W, int K) {
  int const x = blockIdx.x * blockDim.x + threadIdx.x;
  int const y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  float sum = 0.0f;
  for (int ky = 0; ky < K; ++ky) {
    int const iy = y + ky - K / 2;
    if (iy < 0 || iy >= H) continue;
    for (int kx = 0; kx < K; ++kx) {
      int const ix = x + kx - K / 2;
      if (ix < 0 || ix >= W) continue;
      sum += scientific_suite::to_float(w[ky * K + kx]) *
             scientific_suite::to_float(in[static_cast<long long>(iy) * W + ix]);
    }
  }
  out[static_cast<long long>(y) * W + x] = scientific_suite::from_float<T>(sum);
}

template <typename T>
void conv2d_reference(T* out, const T* in, const T* w, int H, int W, int K) {
  if (H <= 0 || W <= 0 || K <= 0) return;
  dim3 const block(32, 8);
  dim3 const grid((W + block.x - 1) / block.x, (H + block.y - 1) / block.y);
  conv2d_reference_kernel<T><<<grid, block>>>(out, in, w, H, W, K);
}
