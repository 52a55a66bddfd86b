// Shared by depthwise_conv2d_nchw-* and depthwise_conv2d_nchw_bias_relu6-*: a depthwise 2-D convolution over
// NCHW tensors (nn.Conv2d with groups = in_channels = out_channels; nn.Conv1d likewise as one row, H = 1),
//   y[n][c][oy][ox] = sum_{ky < KH, kx < KW} x[n][c][oy*SH - PH + ky*DH][ox*SW - PW + kx*DW] * w[c][ky][kx]
// over the taps inside the input (zero padding), x: N x C x H x W, w: C x KH x KW (PyTorch's C x 1 x KH x KW
// weight), y: N x C x Ho x Wo with Ho = (H + 2*PH - DH*(KH - 1) - 1) / SH + 1 (likewise Wo). With `bias`
// (length C) bias[c] is added to the sum; with `relu6` the result is clamped to [0, 6] after it (MobileNet's
// nn.Conv2d(bias=True) + nn.ReLU6).
//
// Reference: one thread per output, the window and the channel's filter read straight from global memory,
// the products summed in double in (ky, kx) order (the product of two floats is exact in double), the bias
// and the clamp in double, one rounding to the element type. conv-reference.cuh's kernel cannot express the
// layer: it sums over every input channel, its weight index does not see the output's channel plane, and
// its epilogue is a ReLU, not a ReLU6; the input index along an axis is its forward_source.
//
// No vendor baseline: cuDNN (grouped convolutions) is not installed, and no installed library (cuBLAS,
// cuFFT, CUB) has a depthwise convolution.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "conv-reference.cuh"
#include "element.cuh"

namespace scientific_suite {

// A depthwise layer's geometry: a KH x KW filter per channel, strides, zero padding and dilations per axis.
struct DepthwiseGeometry {
  int KH, KW, SH, SW, PH, PW, DH, DW;
  // floor((in + 2*pad - dil*(k - 1) - 1) / stride) + 1, 0 where no window fits.
  __host__ __device__ static int extent(int in, int k, int stride, int pad, int dil) {
    int const span = in + 2 * pad - dil * (k - 1) - 1;
    return span < 0 || stride <= 0 ? 0 : span / stride + 1;
  }
  __host__ __device__ int out_h(int H) const { return extent(H, KH, SH, PH, DH); }
  __host__ __device__ int out_w(int W) const { return extent(W, KW, SW, PW, DW); }
};

template <typename T>
__global__ void depthwise_conv2d_nchw_reference_kernel(T* y, const T* x, const T* w, int N, int C, int H,
                                                       int W, DepthwiseGeometry g, const T* bias,
                                                       bool relu6) {
  int const Ho = g.out_h(H);
  int const Wo = g.out_w(W);
  long long const total = static_cast<long long>(N) * C * Ho * Wo;
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  auto const [n, c, oy, ox] = nchw_index(i, C, Ho, Wo);
  const T* const plane = x + (n * C + c) * static_cast<long long>(H) * W;
  const T* const filter = w + static_cast<long long>(c) * g.KH * g.KW;
  double sum = 0.0;
  for (int ky = 0; ky < g.KH; ++ky) {
    int const iy = forward_source(oy, ky, H, g.SH, g.PH, g.DH);
    if (iy < 0) continue;
    for (int kx = 0; kx < g.KW; ++kx) {
      int const ix = forward_source(ox, kx, W, g.SW, g.PW, g.DW);
      if (ix < 0) continue;
      sum += to_double(plane[static_cast<long long>(iy) * W + ix]) * to_double(filter[ky * g.KW + kx]);
    }
  }
  if (bias != nullptr) sum += to_double(bias[c]);
  if (relu6) sum = sum < 0.0 ? 0.0 : (sum > 6.0 ? 6.0 : sum);
  store(&y[i], sum);
}

// Launched on the default stream, one thread per output in blocks of 256; nothing for an empty output.
template <typename T>
void depthwise_conv2d_nchw_reference(T* y, const T* x, const T* w, int N, int C, int H, int W,
                                     DepthwiseGeometry g, const T* bias = nullptr, bool relu6 = false) {
  int const Ho = g.out_h(H);
  int const Wo = g.out_w(W);
  if (N <= 0 || C <= 0 || Ho <= 0 || Wo <= 0) return;
  long long const total = static_cast<long long>(N) * C * Ho * Wo;
  depthwise_conv2d_nchw_reference_kernel<T>
      <<<static_cast<unsigned>((total + 255) / 256), 256>>>(y, x, w, N, C, H, W, g, bias, relu6);
}

}  // namespace scientific_suite
