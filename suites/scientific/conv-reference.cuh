// The one reference kernel of the convolution tasks (conv2d_nchw-*, conv_transpose2d_nchw-*, conv3d_ncdhw-*,
// conv_transpose3d_ncdhw-* and their bias forms): one thread per output y[n][co][oz][oy][ox] of an NCDHW
// tensor (a 2-D layer is one with D = 1 and a 1-deep filter), summing x[n][ci][iz][iy][ix] * w[...] in double
// over the taps (ci, kz, ky, kx) in that order, and rounding once to the element type. The layer is its
// `Geometry`: out_d/out_h/out_w (the output extents), source_d/source_h/source_w (the input index a tap of an
// output reads along an axis, -1 for none: forward_source or transposed_source), KD, KH, KW and weight() (the
// weight tensor's layout). Then scientific_suite::bias_relu_shift: with `bias` (length Cout) max(conv +
// bias[co], 0), a layer with its bias and a ReLU; with `shift` as well, shift[co] added after the ReLU; both
// in double. Naive on purpose: the window and the weights are read straight from global memory, every tap is
// visited (the product of two floats is exact in double, so the reference stays the accurate side of every
// comparison).
#pragma once
#include <cuda_runtime.h>

#include "element.cuh"

namespace scientific_suite {

// A convolution's input index along one axis for output o and tap k: o*stride - pad + k*dil, or -1 in the
// padding.
__host__ __device__ inline int forward_source(int o, int k, int in, int stride, int pad, int dil) {
  int const i = o * stride - pad + k * dil;
  return i < 0 || i >= in ? -1 : i;
}

// A transposed convolution's (the gather form of its scatter o = i*stride - pad + k*dil): i = (o + pad -
// k*dil) / stride where that numerator is >= 0 and a multiple of the stride and i < in, -1 otherwise.
__host__ __device__ inline int transposed_source(int o, int k, int in, int stride, int pad, int dil) {
  int const num = o + pad - k * dil;
  if (num < 0 || num % stride != 0) return -1;
  int const i = num / stride;
  return i < in ? i : -1;
}

template <typename T, typename Geometry>
__global__ void conv_reference_kernel(T* y, const T* x, const T* w, int N, int Cin, int Cout, int D, int H,
                                      int W, Geometry g, const T* bias, const T* shift) {
  int const Do = g.out_d(D);
  int const Ho = g.out_h(H);
  int const Wo = g.out_w(W);
  long long const total = static_cast<long long>(N) * Cout * Do * Ho * Wo;
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  auto const [n, co, oz, oy, ox] = ncdhw_index(i, Cout, Do, Ho, Wo);
  double sum = 0.0;
  for (int ci = 0; ci < Cin; ++ci) {
    for (int kz = 0; kz < g.KD; ++kz) {
      int const iz = g.source_d(oz, kz, D);
      if (iz < 0) continue;
      for (int ky = 0; ky < g.KH; ++ky) {
        int const iy = g.source_h(oy, ky, H);
        if (iy < 0) continue;
        for (int kx = 0; kx < g.KW; ++kx) {
          int const ix = g.source_w(ox, kx, W);
          if (ix < 0) continue;
          sum += to_double(x[(((n * Cin + ci) * D + iz) * H + iy) * W + ix]) *
                 to_double(w[g.weight(co, ci, Cin, Cout, kz, ky, kx)]);
        }
      }
    }
  }
  store(&y[i], bias_relu_shift(sum, bias, shift, co));
}

// Launched on the default stream, one thread per output in blocks of 256; nothing for an empty output.
template <typename T, typename Geometry>
void conv_reference(T* y, const T* x, const T* w, int N, int Cin, int Cout, int D, int H, int W, Geometry g,
                    const T* bias, const T* shift) {
  int const Do = g.out_d(D);
  int const Ho = g.out_h(H);
  int const Wo = g.out_w(W);
  if (N <= 0 || Cout <= 0 || Do <= 0 || Ho <= 0 || Wo <= 0) return;
  long long const total = static_cast<long long>(N) * Cout * Do * Ho * Wo;
  conv_reference_kernel<T, Geometry>
      <<<static_cast<unsigned>((total + 255) / 256), 256>>>(y, x, w, N, Cin, Cout, D, H, W, g, bias, shift);
}

}  // namespace scientific_suite
