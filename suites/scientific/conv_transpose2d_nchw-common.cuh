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
// Reference: conv-reference.cuh's kernel for a layer one plane deep, one thread per output, gathering rather
// than scattering (no atomics, a fixed order): for every tap (ci, ky, kx) the input row is iy = (oy + PH -
// ky*DH) / SH when that numerator is >= 0 and a multiple of SH and iy < H (no term otherwise;
// transposed_source), the column likewise; the products summed in double in (ci, ky, kx) order and rounded
// once. Naive on purpose: every tap is visited, also those the stride skips.
//
// No vendor baseline: cuDNN is not installed, and cuBLAS, cuSPARSE, cuFFT and CUB have no transposed
// convolution.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "conv-reference.cuh"
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
  // As conv-reference.cuh's kernel reads a layer: one plane deep (D = 1), w[ci][co][ky][kx].
  static constexpr int KD = 1;
  __host__ __device__ static int out_d(int D) { return D; }
  __host__ __device__ static int source_d(int oz, int /*kz*/, int /*D*/) { return oz; }
  __host__ __device__ int source_h(int oy, int ky, int H) const {
    return scientific_suite::transposed_source(oy, ky, H, SH, PH, DH);
  }
  __host__ __device__ int source_w(int ox, int kx, int W) const {
    return scientific_suite::transposed_source(ox, kx, W, SW, PW, DW);
  }
  __host__ __device__ long long weight(int co, int ci, int /*Cin*/, int Cout, int /*kz*/, int ky,
                                       int kx) const {
    return ((static_cast<long long>(ci) * Cout + co) * KH + ky) * KW + kx;
  }
};

// conv_transpose2d_nchw_bias_relu-*: with `bias` (length Cout) the output is max(convT + bias[co], 0),
// nn.ConvTranspose2d with its bias and a ReLU after it; the reference adds the bias in double before the one
// rounding. conv_transpose2d_nchw_relu_bias_add-*: with `shift` (length Cout) as well, shift[co] is added
// after the ReLU, also in double.
template <typename T>
void conv_transpose2d_nchw_reference(T* y, const T* x, const T* w, int N, int Cin, int Cout, int H, int W,
                                     ConvTranspose2dGeometry g, const T* bias = nullptr,
                                     const T* shift = nullptr) {
  if (g.SH <= 0 || g.SW <= 0) return;  // no such layer (PyTorch rejects it)
  scientific_suite::conv_reference(y, x, w, N, Cin, Cout, 1, H, W, g, bias, shift);
}

}  // namespace conv_transpose2d_suite
