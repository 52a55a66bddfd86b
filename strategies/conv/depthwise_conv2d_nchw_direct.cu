// Strategy depthwise_conv2d_nchw_direct, depthwise_conv2d_nchw family (launcher mode): a depthwise convolution
// (nn.Conv2d with groups = in_channels = out_channels; nn.Conv1d likewise as one row, H = 1) of an N x C x H x W
// tensor with a C x KH x KW filter (PyTorch holds it as C x 1 x KH x KW), any stride, zero padding and dilation
// per axis:
//   y[n][c][oh][ow] = sum over (kh, kw) of x[n][c][oh*SH - PH + kh*DH][ow*SW - PW + kw*DW] * w[c][kh][kw]
// over the taps inside the input, the output extent floor((X + 2P - DIL*(K - 1) - 1) / S) + 1 per axis, FP32
// accumulation. With KOPT_DEPTHWISE_BIAS (family depthwise_conv2d_nchw_bias) the entry also takes bias[C] last
// and the task's element-wise chain `op` over v (the sum plus the bias; KOPT_CONV_OP, a manifest define) is
// applied before the store.
//
// A thread computes OUTS adjacent outputs of one output row: for each filter row inside the input it walks the
// input row once, each tap loaded once feeding every output whose window holds it, the filter row's KW weights
// read through the read-only path (a warp's threads share a channel: one broadcast load). Consecutive threads
// take consecutive runs of a row, so a warp's loads are contiguous at stride 1. The taps in the padding are
// skipped by computed bounds, not predicates. A grid-stride loop over a few waves of blocks covers any size.
// Memory-bound for the usual 3 x 3 to 7 x 7 filters (each input is reused KH*KW/(SH*SW) times from L1/L2).
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
#ifndef KOPT_DEPTHWISE_BIAS
#define KOPT_DEPTHWISE_BIAS 0
#endif

namespace depthwise_conv2d_nchw_direct {

using T = {{T}};

// kopt:include ../common/multiprocessors.cuh
// kopt:include ../common/window_axis.cuh

#if KOPT_DEPTHWISE_BIAS
// The task's `op` over v (the sum plus the bias), a manifest define as the convolutions' KOPT_CONV_OP.
__device__ __forceinline__ float epilogue(float v) { return (KOPT_CONV_OP); }
#endif

__global__ void __launch_bounds__(BLOCK)
    depthwise_kernel(T* __restrict__ y, const T* __restrict__ x, const T* __restrict__ w,
                     const T* __restrict__ bias, int C, long long planes, Axis ah, Axis aw) {
  (void)bias;
  long long const runs_per_row = (aw.out + OUTS - 1) / OUTS;
  long long const total = planes * ah.out * runs_per_row;
  for (long long t = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x; t < total;
       t += static_cast<long long>(gridDim.x) * BLOCK) {
    int const run = static_cast<int>(t % runs_per_row);
    long long const rest = t / runs_per_row;
    int const oh = static_cast<int>(rest % ah.out);
    long long const plane = rest / ah.out;
    int const c = static_cast<int>(plane % C);
    int const ow0 = run * OUTS;
    int const hs = oh * ah.stride - ah.pad;
    int kh0, kh1;
    inside(hs, ah.k, ah.dilation, ah.in, kh0, kh1);
    float acc[OUTS];
    int w0[OUTS];
    int w1[OUTS];
#pragma unroll
    for (int o = 0; o < OUTS; ++o) {
      acc[o] = 0.0f;
      inside((ow0 + o) * aw.stride - aw.pad, aw.k, aw.dilation, aw.in, w0[o], w1[o]);
    }
    const T* const filter = w + static_cast<long long>(c) * ah.k * aw.k;
    for (int kh = kh0; kh < kh1; ++kh) {
      const T* const row = x + (plane * ah.in + (hs + kh * ah.dilation)) * aw.in;
      const T* const taps = filter + kh * aw.k;
#pragma unroll
      for (int o = 0; o < OUTS; ++o) {
        int const ws = (ow0 + o) * aw.stride - aw.pad;
        for (int kw = w0[o]; kw < w1[o]; ++kw)
          acc[o] = fmaf(kopt_strategy::to_float(__ldg(row + ws + kw * aw.dilation)),
                        kopt_strategy::to_float(__ldg(taps + kw)), acc[o]);
      }
    }
    T* const out = y + (plane * ah.out + oh) * aw.out;
#if KOPT_DEPTHWISE_BIAS
    float const b = kopt_strategy::to_float(__ldg(bias + c));
#endif
#pragma unroll
    for (int o = 0; o < OUTS; ++o) {
      if (ow0 + o >= aw.out) break;
#if KOPT_DEPTHWISE_BIAS
      out[ow0 + o] = kopt_strategy::from_float<T>(epilogue(acc[o] + b));
#else
      out[ow0 + o] = kopt_strategy::from_float<T>(acc[o]);
#endif
    }
  }
}

}  // namespace depthwise_conv2d_nchw_direct

// clang-format off
extern "C" void {{ENTRY}}({{T}}* y, const {{T}}* x, const {{T}}* w, int N, int C, int H, int W, int KH, int KW,
                          int SH, int SW, int PH, int PW, int DH, int DW
#if KOPT_DEPTHWISE_BIAS
                          , const {{T}}* bias
#endif
                          ) {
  // clang-format on
  using namespace depthwise_conv2d_nchw_direct;
#if !KOPT_DEPTHWISE_BIAS
  const {{T}}* const bias = nullptr;
#endif
  Axis const ah = window_axis(H, KH, SH, PH, DH);
  Axis const aw = window_axis(W, KW, SW, PW, DW);
  long long const planes = static_cast<long long>(N) * C;
  if (planes <= 0 || ah.out <= 0 || aw.out <= 0) return;
  long long const runs = planes * ah.out * ((aw.out + OUTS - 1) / OUTS);
  long long blocks = (runs + BLOCK - 1) / BLOCK;
  long long const cap = static_cast<long long>(multiprocessors()) * (2048 / BLOCK) * WAVES;
  if (blocks > cap) blocks = cap;
  depthwise_kernel<<<static_cast<unsigned>(blocks), BLOCK, 0, kopt_strategy::launch_stream()>>>(y, x, w, bias, C,
                                                                                                planes, ah, aw);
}
