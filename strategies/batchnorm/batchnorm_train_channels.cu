// Strategy batchnorm_train_channels, batchnorm_train family (launcher mode): batch normalisation in training
// mode, NCHW: the statistics of the batch, per channel c over its N planes of H*W elements,
//   mean[c] = mean of x[.][c][.][.], var[c] = biased variance (divided by N*H*W, as PyTorch normalises),
//   out[n][c][h][w] = (x[n][c][h][w] - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c],
// mean and var written rounded once to T (the batch statistics, as PyTorch's save_mean and the variance
// whose 1/sqrt(var + eps) is its save_invstd). Two kernels, in FP32 throughout for BF16 data:
//   1. statistics (batchnorm_train_stats.cuh): blocks per channel walk its planes with 128-bit loads and
//      UNROLL loads in flight per thread, sums of x - K and (x - K)^2 around a per-channel shift K, one pair
//      per block, the last block of each channel (ticket) adds them in a fixed order and writes mean, var
//      and the channel's FP32 constants;
//   2. normalize: the same walk per channel (blockIdx.y the channel, its constants loaded once per block,
//      no division per element), out = ((x - K) - (mean - K)) * scale + beta with one FMA, 128-bit loads and
//      stores, the loads of a step all issued before the first store. It walks the planes first to last,
//      the reverse of pass 1, so its first reads hit the planes pass 1 left in L2; with STREAM, x is read
//      with the evict-first (last use) hint and out is stored streaming so that neither evicts the planes
//      still to come.
// H*W not a multiple of 4 (FP32) or 8 (BF16), or a misaligned buffer, goes element by element along the same
// walk (coalesced within each plane), so any shape and any offset are correct. Deterministic.
//
// Knobs: BLOCK threads per block; UNROLL positions (packs) in flight per thread and step; BLOCKS_PER_SM the
// blocks per SM both grids aim at (capped by occupancy); STREAM cache hints on pass 2.
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob BLOCKS_PER_SM = [1, 2, 4, 8] resources=none
// kopt:knob STREAM = [0, 1] resources=none
// kopt:constraint BLOCK * BLOCKS_PER_SM <= 2048

#include <cuda_runtime.h>

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef BLOCKS_PER_SM
#define BLOCKS_PER_SM 4
#endif
#ifndef STREAM
#define STREAM 1
#endif

namespace batchnorm_train_channels {

using T = {{T}};

// kopt:include ../common/multiprocessors.cuh
// kopt:include batchnorm_train_stats.cuh
// kopt:include batchnorm_train_normalize.cuh

}  // namespace batchnorm_train_channels

// clang-format off
extern "C" void {{ENTRY}}({{T}}* out,
#if !KOPT_FORWARD_ONLY
                          {{T}}* mean, {{T}}* var,
#endif
                          const {{T}}* x, const {{T}}* gamma, const {{T}}* beta, float eps, int N, int C, int H,
                          int W
#if KOPT_TORCH_STATS
                          , {{T}}* running_mean, {{T}}* running_var, float momentum
#endif
                          ) {
  // clang-format on
#if KOPT_FORWARD_ONLY
  {{T}}* const mean = nullptr;  // the statistics stay inside (nn.BatchNorm2d's forward returns the output only)
  {{T}}* const var = nullptr;
#endif
  using namespace batchnorm_train_channels;
  if (N < 0 || C <= 0 || H < 0 || W < 0) return;
  long long const hw = static_cast<long long>(H) * W;
  int const splits = splits_for(N, C, hw);
  Scratch s;
#if KOPT_TORCH_STATS
  RunningStats const running{running_mean, running_var, momentum};
  if (!launch_stats(mean, var, x, gamma, beta, eps, N, C, hw, splits, s, running)) return;  // out of memory
#else
  if (!launch_stats(mean, var, x, gamma, beta, eps, N, C, hw, splits, s)) return;  // out of memory: unwritten
#endif
  dim3 const grid(static_cast<unsigned>(splits), static_cast<unsigned>(C < 65535 ? C : 65535));
  normalize_kernel<<<grid, BLOCK, 0, kopt_strategy::launch_stream()>>>(out, x, N, C, hw, s.constants);
}
