// Shared by conv_transpose2d_nchw-*, conv_transpose2d_nchw_bias_relu-* and
// conv_transpose2d_nchw_relu_bias_add-*: nn.ConvTranspose2d's forward pass (a "deconvolution", the gradient
// of nn.Conv2d with respect to its input) over NCHW tensors, groups 1:
//   y[n][co][oy][ox] = sum over ci < Cin, ky < KH, kx < KW of x[n][ci][iy][ix] * w[ci][co][ky][kx]
//   over the (iy, ix) with oy = iy*SH - PH + ky*DH and ox = ix*SW - PW + kx*DW,
// x: N x Cin x H x W, w: Cin x Cout x KH x KW (PyTorch's ConvTranspose2d weight layout, Cin first), y: N x
// Cout x Ho x Wo with Ho = (H - 1)*SH - 2*PH + DH*(KH - 1) + OPH + 1 (likewise Wo): strides SH, SW, padding
// PH, PW (cropped from both sides of the full output), dilations DH, DW, output padding OPH, OPW (extra rows
// and columns at the bottom and right, which only the taps that reach them feed): torch.nn.functional.
// conv_transpose2d(x, w, stride=(SH, SW), padding=(PH, PW), output_padding=(OPH, OPW), dilation=(DH, DW)).
//
// Reference: one thread per output, gathering rather than scattering (no atomics, a fixed order): for every
// tap (ci, ky, kx) the input row is iy = (oy + PH - ky*DH) / SH when that numerator is >= 0 and a multiple of
// SH and iy < H (no term otherwise), the column likewise. The products are summed in double in (ci, ky, kx)
// order (the product of two floats is exact in double, so the reference stays the accurate side of every
// comparison, as conv2d_nchw-common.cuh's does) and rounded once to the element type. Naive on purpose: the
// window and the weights are read straight from global memory, and every tap is visited, also those the
// stride skips.
//
// No vendor baseline: cuDNN is not installed, and cuBLAS, cuSPARSE, cuFFT and CUB have no transposed
// convolution.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "element.cuh"

namespace conv_transpose2d_suite {

// nn.ConvTranspose2d's geometry (groups 1): a KH x KW filter, strides, padding, dilations and output padding
// per axis.
struct ConvTranspose2dGeometry {
  int KH, KW, SH, SW, PH, PW, DH, DW, OPH, OPW;
  // (in - 1)*stride - 2*pad + dil*(k - 1) + out_pad + 1, 0 where that is not positive.
  __host__ __device__ static int extent(int in, int k, int stride, int pad, int dil, int out_pad) {
    int const e = (in - 1) * stride - 2 * pad + dil * (k - 1) + out_pad + 1;
    return e < 0 ? 0 : e;
  }
  __host__ __device__ int out_h(int H) const { return extent(H, KH, SH, PH, DH, OPH); }
  __host__ __device__ int out_w(int W) const { return extent(W, KW, SW, PW, DW, OPW); }
};

// conv_transpose2d_nchw_bias_relu-*: with `bias` (length Cout) the output is max(convT + bias[co], 0),
// nn.ConvTranspose2d with its bias and a ReLU after it; the reference adds the bias in double before the one
// rounding. conv_transpose2d_nchw_relu_bias_add-*: with `shift` (length Cout) as well, shift[co] is added
// after the ReLU, also in double.
template <typename T>
__global__ void conv_transpose2d_nchw_reference_kernel(T* y, const T* x, const T* w, int N, int Cin, int Cout,
                                                       int H, int W, ConvTranspose2dGeometry g, const T* bias,
                                                       const T* shift) {
  int const Ho = g.out_h(H);
  int const Wo = g.out_w(W);
  long long const total = static_cast<long long>(N) * Cout * Ho * Wo;
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  auto const [n, co, oy, ox] = scientific_suite::nchw_index(i, Cout, Ho, Wo);
  double sum = 0.0;
  for (int ci = 0; ci < Cin; ++ci) {
    for (int ky = 0; ky < g.KH; ++ky) {
      int const ny = oy + g.PH - ky * g.DH;  // = iy*SH for the input row this tap reads, if any
      if (ny < 0 || ny % g.SH != 0) continue;
      int const iy = ny / g.SH;
      if (iy >= H) continue;
      for (int kx = 0; kx < g.KW; ++kx) {
        int const nx = ox + g.PW - kx * g.DW;
        if (nx < 0 || nx % g.SW != 0) continue;
        int const ix = nx / g.SW;
        if (ix >= W) continue;
        sum += scientific_suite::to_double(x[((n * Cin + ci) * H + iy) * W + ix]) *
               scientific_suite::to_double(
                   w[((static_cast<long long>(ci) * Cout + co) * g.KH + ky) * g.KW + kx]);
      }
    }
  }
  scientific_suite::store(&y[i], scientific_suite::bias_relu_shift(sum, bias, shift, co));
}

// Launched on the default stream, one thread per output in blocks of 256.
template <typename T>
void conv_transpose2d_nchw_reference(T* y, const T* x, const T* w, int N, int Cin, int Cout, int H, int W,
                                     ConvTranspose2dGeometry g, const T* bias = nullptr,
                                     const T* shift = nullptr) {
  if (g.SH <= 0 || g.SW <= 0) return;  // no such layer (PyTorch rejects it)
  int const Ho = g.out_h(H);
  int const Wo = g.out_w(W);
  if (N <= 0 || Cout <= 0 || Ho <= 0 || Wo <= 0) return;
  long long const total = static_cast<long long>(N) * Cout * Ho * Wo;
  conv_transpose2d_nchw_reference_kernel<T>
      <<<static_cast<unsigned>((total + 255) / 256), 256>>>(y, x, w, N, Cin, Cout, H, W, g, bias, shift);
}

}  // namespace conv_transpose2d_suite
