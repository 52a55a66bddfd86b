// Reference N-D pooling, shared by pool3d_ncdhw-{f32,bf16}: nn.MaxPool1d/2d/3d and nn.AvgPool1d/2d/3d in
// floor mode (ceil_mode=False) over an N x C x D x H x W tensor (row-major; a 2-D layer is D = 1 with KD = 1,
// a 1-D one also H = 1 with KH = 1), with a KD x KH x KW window, strides SD, SH, SW, zero padding PD, PH, PW
// and dilations DD, DH, DW per axis. Along each axis the output extent is
//   Do = floor((D + 2*PD - DD*(KD - 1) - 1) / SD) + 1   (likewise Ho, Wo)
// and tap kz of output oz sits at iz = oz*SD - PD + kz*DD (likewise iy, ix); taps outside [0, D) are padding:
//   max:                 y[n][c][oz][oy][ox] = max of x[n][c][iz][iy][ix] over the taps inside the input
//                        (the padding is -inf: it never wins, so an all-negative window stays negative)
//   average:             (sum of the same taps) / k, k = the taps inside the PADDED input, -PD <= iz < D + PD
//                        on every axis (PyTorch's divisor with count_include_pad=True, its default)
//   average_exclude_pad: (sum of the same taps) / v, v = the taps inside the input itself, 0 <= iz < D
//                        (count_include_pad=False)
// k and v are counted tap by tap. In floor mode no window reaches past X + P, so k is KD*KH*KW; the count is
// kept literal so that the reference states the definition rather than that consequence.
//
// One thread per output, the window's taps visited in (kz, ky, kx) order straight from global memory: the
// maximum in FP32 (exact), the sums in double, divided in double and rounded once to the element type.
// Naive on purpose: overlapping windows (S < K*DIL) load the same input several times, nothing is
// vectorised. 64-bit element indices: N*C*D*H*W may exceed 2^31.
#pragma once
#include <cuda_runtime.h>
#include <math.h>

#include "element.cuh"

namespace scientific_suite {

enum class Pool3d { max, average, average_exclude_pad };

// nn.MaxPool3d / nn.AvgPool3d's geometry: window, strides, zero padding and dilations per axis.
struct Pool3dGeometry {
  int KD, KH, KW, SD, SH, SW, PD, PH, PW, DD, DH, DW;

  // floor((in + 2*pad - dil*(k - 1) - 1) / stride) + 1, 0 where no window fits or the stride is not positive.
  __host__ __device__ static int extent(int in, int k, int stride, int pad, int dil) {
    long long const span = static_cast<long long>(in) + 2LL * pad - static_cast<long long>(dil) * (k - 1) - 1;
    return span < 0 || stride <= 0 || k <= 0 ? 0 : static_cast<int>(span / stride + 1);
  }
  __host__ __device__ int out_d(int D) const { return extent(D, KD, SD, PD, DD); }
  __host__ __device__ int out_h(int H) const { return extent(H, KH, SH, PH, DH); }
  __host__ __device__ int out_w(int W) const { return extent(W, KW, SW, PW, DW); }
};

template <typename T, Pool3d Op>
__global__ void pool3d_ncdhw_reference_kernel(T* y, const T* x, int N, int C, int D, int H, int W,
                                              Pool3dGeometry g) {
  int const Do = g.out_d(D);
  int const Ho = g.out_h(H);
  int const Wo = g.out_w(W);
  long long const total = static_cast<long long>(N) * C * Do * Ho * Wo;
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= total) return;
  auto const [n, c, oz, oy, ox] = ncdhw_index(i, C, Do, Ho, Wo);
  const T* const plane = x + (n * C + c) * D * H * W;
  float best = -INFINITY;
  double sum = 0.0;
  long long padded = 0;  // k: taps inside the padded input
  long long valid = 0;   // v: taps inside the input
  for (int kz = 0; kz < g.KD; ++kz) {
    int const iz = oz * g.SD - g.PD + kz * g.DD;
    for (int ky = 0; ky < g.KH; ++ky) {
      int const iy = oy * g.SH - g.PH + ky * g.DH;
      for (int kx = 0; kx < g.KW; ++kx) {
        int const ix = ox * g.SW - g.PW + kx * g.DW;
        if (iz >= -g.PD && iz < D + g.PD && iy >= -g.PH && iy < H + g.PH && ix >= -g.PW && ix < W + g.PW)
          ++padded;
        if (iz < 0 || iz >= D || iy < 0 || iy >= H || ix < 0 || ix >= W) continue;  // padding
        ++valid;
        T const v = plane[(static_cast<long long>(iz) * H + iy) * W + ix];
        best = fmaxf(best, to_float(v));
        sum += to_double(v);
      }
    }
  }
  if (Op == Pool3d::max) {
    y[i] = from_float<T>(best);
  } else {
    long long const divisor = Op == Pool3d::average ? padded : valid;
    store(&y[i], sum / static_cast<double>(divisor));
  }
}

// Launched on the default stream, one thread per output in blocks of 256; nothing for an empty output.
template <typename T, Pool3d Op>
void pool3d_ncdhw_reference(T* y, const T* x, int N, int C, int D, int H, int W, Pool3dGeometry g) {
  int const Do = g.out_d(D);
  int const Ho = g.out_h(H);
  int const Wo = g.out_w(W);
  if (N <= 0 || C <= 0 || Do <= 0 || Ho <= 0 || Wo <= 0) return;
  long long const total = static_cast<long long>(N) * C * Do * Ho * Wo;
  pool3d_ncdhw_reference_kernel<T, Op>
      <<<static_cast<unsigned>((total + 255) / 256), 256>>>(y, x, N, C, D, H, W, g);
}

}  // namespace scientific_suite
