// Strategy pool3d_ncdhw_direct, pool3d_ncdhw family (launcher mode): max or average pooling of an N x C x D x H
// x W tensor with any window, stride, zero padding and dilation per axis (nn.MaxPool1d/2d/3d and
// nn.AvgPool1d/2d/3d without ceil_mode; a 1-D or 2-D layer is D = 1 (and H = 1) with a window of one there):
//   y[n][c][od][oh][ow] = finish(combine over the window's taps inside the input, k, v)
// with the output extent floor((X + 2P - DIL*(K - 1) - 1) / S) + 1 per axis, taps at od*SD - PD + kd*DD (and
// likewise), taps in the padding skipped (max pooling pads with -inf, average pooling with zeros), `k` the
// window's taps inside the padded input (PyTorch's divisor with count_include_pad, the default) and `v` those
// inside the input itself (its divisor without), both as float. The task's [strategy_params] give `combine`
// over a, b, `identity` and `finish` over s, k and v, in FP32: max pooling fmaxf(a, b), -INFINITY, s; average
// pooling a + b, 0.0f, s / k.
//
// A thread computes OUTS adjacent outputs of one output row (their windows overlap when SW < KW * DW, so a
// tap loaded once serves several: the row's input span is walked once per (kd, kh)), reading x through the
// read-only path; consecutive threads take consecutive runs of a row, so a warp's loads are contiguous for
// stride 1 and strided by SW otherwise (the sectors they touch are the same few lines, served from L1). A
// grid-stride loop over about WAVES waves of blocks covers any tensor. No shared memory, no barrier.
//
// Knobs: BLOCK threads per block; OUTS outputs per thread along a row; WAVES resident waves of blocks.
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob OUTS = [1, 2, 4, 8]
// kopt:knob WAVES = [1, 2, 4, 8] resources=none

#include <cuda_runtime.h>

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef OUTS
#define OUTS 4
#endif
#ifndef WAVES
#define WAVES 4
#endif

namespace pool3d_ncdhw_direct {

using T = {{T}};

// kopt:include ../common/multiprocessors.cuh
// kopt:include ../common/window_axis.cuh
// kopt:include pool_op.cuh

__global__ void __launch_bounds__(BLOCK)
    pool_kernel(T* __restrict__ y, const T* __restrict__ x, long long planes, Axis ad, Axis ah, Axis aw) {
  long long const runs_per_row = (aw.out + OUTS - 1) / OUTS;
  long long const total = planes * ad.out * ah.out * runs_per_row;
  for (long long t = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; t < total;
       t += static_cast<long long>(gridDim.x) * BLOCK) {
    long long rest = t;
    int const run = static_cast<int>(rest % runs_per_row);
    rest /= runs_per_row;
    int const oh = static_cast<int>(rest % ah.out);
    rest /= ah.out;
    int const od = static_cast<int>(rest % ad.out);
    long long const plane = rest / ad.out;
    int const ow0 = run * OUTS;
    int const ds = od * ad.stride - ad.pad;
    int const hs = oh * ah.stride - ah.pad;
    int kd0, kd1, kh0, kh1;
    inside(ds, ad.k, ad.dilation, ad.in, kd0, kd1);
    inside(hs, ah.k, ah.dilation, ah.in, kh0, kh1);
    float const k_dh = static_cast<float>(taps_below(ds, ad.k, ad.dilation, ad.in + ad.pad) *
                                          taps_below(hs, ah.k, ah.dilation, ah.in + ah.pad));
    float const v_dh = static_cast<float>((kd1 - kd0) * (kh1 - kh0));
    float acc[OUTS];
    int w0[OUTS];
    int w1[OUTS];
#pragma unroll
    for (int o = 0; o < OUTS; ++o) {
      acc[o] = PoolOp::identity();
      inside((ow0 + o) * aw.stride - aw.pad, aw.k, aw.dilation, aw.in, w0[o], w1[o]);
    }
    const T* const base = x + plane * ad.in * ah.in * aw.in;
    for (int kd = kd0; kd < kd1; ++kd) {
      for (int kh = kh0; kh < kh1; ++kh) {
        const T* const row = base + (static_cast<long long>(ds + kd * ad.dilation) * ah.in +
                                     (hs + kh * ah.dilation)) * aw.in;
#pragma unroll
        for (int o = 0; o < OUTS; ++o) {
          int const ws = (ow0 + o) * aw.stride - aw.pad;
          for (int kw = w0[o]; kw < w1[o]; ++kw)
            acc[o] = PoolOp::combine(acc[o], kopt_strategy::to_float(__ldg(row + ws + kw * aw.dilation)));
        }
      }
    }
    T* const out = y + ((plane * ad.out + od) * ah.out + oh) * aw.out;
#pragma unroll
    for (int o = 0; o < OUTS; ++o) {
      if (ow0 + o >= aw.out) break;
      int const ws = (ow0 + o) * aw.stride - aw.pad;
      float const k = k_dh * static_cast<float>(taps_below(ws, aw.k, aw.dilation, aw.in + aw.pad));
      float const v = v_dh * static_cast<float>(w1[o] - w0[o]);
      out[ow0 + o] = kopt_strategy::from_float<T>(PoolOp::finish(acc[o], k, v));
    }
  }
}

}  // namespace pool3d_ncdhw_direct

extern "C" void {{ENTRY}}({{T}}* y, const {{T}}* x, int N, int C, int D, int H, int W, int KD, int KH, int KW,
                          int SD, int SH, int SW, int PD, int PH, int PW, int DD, int DH, int DW) {
  using namespace pool3d_ncdhw_direct;
  Axis const ad = window_axis(D, KD, SD, PD, DD);
  Axis const ah = window_axis(H, KH, SH, PH, DH);
  Axis const aw = window_axis(W, KW, SW, PW, DW);
  long long const planes = static_cast<long long>(N) * C;
  if (planes <= 0 || ad.out <= 0 || ah.out <= 0 || aw.out <= 0) return;
  long long const runs = planes * ad.out * ah.out * ((aw.out + OUTS - 1) / OUTS);
  long long blocks = (runs + BLOCK - 1) / BLOCK;
  long long const cap = static_cast<long long>(multiprocessors()) * (2048 / BLOCK) * WAVES;
  if (blocks > cap) blocks = cap;
  pool_kernel<<<static_cast<unsigned>(blocks), BLOCK, 0, kopt_strategy::launch_stream()>>>(y, x, planes, ad, ah,
                                                                                           aw);
}
