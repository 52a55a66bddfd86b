// Shared by conv_transpose3d_ncdhw-* and conv_transpose3d_ncdhw_bias_relu-*: nn.ConvTranspose3d's forward
// pass (the gradient of nn.Conv3d with respect to its input) over NCDHW tensors, groups 1:
//   y[n][co][oz][oy][ox] = sum over ci < Cin, kz < KD, ky < KH, kx < KW of x[n][ci][iz][iy][ix] *
//   w[ci][co][kz][ky][kx] over the (iz, iy, ix) with oz = iz*SD - PD + kz*DD, oy = iy*SH - PH + ky*DH and
//   ox = ix*SW - PW + kx*DW,
// x: N x Cin x D x H x W, w: Cin x Cout x KD x KH x KW (PyTorch's ConvTranspose3d weight layout, Cin first),
// y: N x Cout x Do x Ho x Wo with Do = (D - 1)*SD - 2*PD + DD*(KD - 1) + OPD + 1 (likewise Ho, Wo): strides,
// padding (cropped from both sides of the full output), dilations and output padding (extra planes, rows and
// columns at the far end of each axis, which only the taps that reach them feed) per axis:
// torch.nn.functional.conv_transpose3d(x, w, stride=(SD, SH, SW), padding=(PD, PH, PW),
// output_padding=(OPD, OPH, OPW), dilation=(DD, DH, DW)). With D = KD = 1 it is
// conv_transpose2d_nchw-common.cuh's layer.
//
// Reference: one thread per output, gathering rather than scattering (no atomics, a fixed order) as the 2-D
// one: for every tap (ci, kz, ky, kx) the input plane is iz = (oz + PD - kz*DD) / SD when that numerator is
// >= 0 and a multiple of SD and iz < D (no term otherwise), the row and the column likewise. The products
// are summed in double in (ci, kz, ky, kx) order and rounded once to the element type. Naive on purpose:
// the window and the weights are read straight from global memory, and every tap is visited, also those
// the stride skips (with stride 2 on every axis, 7 of 8).
//
// No vendor baseline: cuDNN is not installed, and cuBLAS, cuSPARSE, cuFFT and CUB have no transposed
// convolution.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "conv3d_ncdhw-common.cuh"
#include "conv_transpose2d_nchw-common.cuh"
#include "element.cuh"

namespace conv_transpose3d_suite {

// nn.ConvTranspose3d's geometry as conv-reference.cuh's kernel reads it: the input index a tap of an output
// reads along each axis is transposed_source's.
struct ConvTranspose3dGeometry {
  int KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW, OPD, OPH, OPW;
  using Axis = conv_transpose2d_suite::ConvTranspose2dGeometry;  // Axis::extent(): one axis's extent
  __host__ __device__ int out_d(int D) const { return Axis::extent(D, KD, SD, PD, DD, OPD); }
  __host__ __device__ int out_h(int H) const { return Axis::extent(H, KH, SH, PH, DH, OPH); }
  __host__ __device__ int out_w(int W) const { return Axis::extent(W, KW, SW, PW, DW, OPW); }
  __host__ __device__ int source_d(int oz, int kz, int D) const {
    return scientific_suite::transposed_source(oz, kz, D, SD, PD, DD);
  }
  __host__ __device__ int source_h(int oy, int ky, int H) const {
    return scientific_suite::transposed_source(oy, ky, H, SH, PH, DH);
  }
  __host__ __device__ int source_w(int ox, int kx, int W) const {
    return scientific_suite::transposed_source(ox, kx, W, SW, PW, DW);
  }
  // w[ci][co][kz][ky][kx]: Cin x Cout x KD x KH x KW (PyTorch's ConvTranspose3d layout).
  __host__ __device__ long long weight(int co, int ci, int /*Cin*/, int Cout, int kz, int ky, int kx) const {
    return (((static_cast<long long>(ci) * Cout + co) * KD + kz) * KH + ky) * KW + kx;
  }
};

// conv_transpose3d_ncdhw_bias_relu-*: with `bias` (length Cout) the output is max(convT + bias[co], 0),
// nn.ConvTranspose3d with its bias and a ReLU after it; with `shift` as well, shift[co] is added after the
// ReLU; both in double before the one rounding. The kernel is conv-reference.cuh's with this
// geometry, launched on the default stream, one thread per output in blocks of 256.
template <typename T>
void conv_transpose3d_ncdhw_reference(T* y, const T* x, const T* w, int N, int Cin, int Cout, int D, int H,
                                      int W, ConvTranspose3dGeometry g, const T* bias = nullptr,
                                      const T* shift = nullptr) {
  if (g.SD <= 0 || g.SH <= 0 || g.SW <= 0) return;  // no such layer (PyTorch rejects it)
  scientific_suite::conv_reference(y, x, w, N, Cin, Cout, D, H, W, g, bias, shift);
}

}  // namespace conv_transpose3d_suite
