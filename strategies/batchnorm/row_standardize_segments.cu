// Strategy row_standardize_segments, row_standardize family (launcher mode): every row of a row-major
// rows x cols matrix standardised, out[r][j] = (x[r][j] - mean_r) / sqrt(var_r + eps), mean_r and the biased
// variance var_r over the row's cols elements (InstanceNorm and GroupNorm without affine parameters, whose
// rows are the (n, c) planes or the (n, group) slabs; LayerNorm without them). The kernels of
// batchnorm_train_channels with each row as one channel of one plane (N = 1, C = rows, hw = cols):
//   1. statistics (batchnorm_train_stats.cuh): about one wave of blocks, several per row when rows are few
//      (a GroupNorm slab of millions of elements) and one per row when they are many, each summing x - K and
//      (x - K)^2 in FP32 around a per-row shift K with 128-bit loads, UNROLL in flight per thread; the last
//      block of a row (ticket) adds the pairs in a fixed order, in double, and keeps the row's constants;
//   2. normalize (batchnorm_train_normalize.cuh): one FMA per element, ((x - K) - (mean - K)) * rstd.
// Two reads of x and one write of out; no division per element; deterministic. Rows whose length is not a
// multiple of 4 (FP32) or 8 (BF16), or a misaligned buffer, go element by element (coalesced).
//
// Knobs: BLOCK threads per block; UNROLL positions in flight per thread and step; BLOCKS_PER_SM the blocks
// per SM both grids aim at (capped by occupancy); STREAM cache hints on pass 2.
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
#define KOPT_SEGMENT_STATS 1  // batchnorm_train_stats.cuh: no mean, var, gamma or beta; the constants' rstd

namespace row_standardize_segments {

using T = {{T}};

// kopt:include ../common/multiprocessors.cuh
// kopt:include batchnorm_train_stats.cuh
// kopt:include batchnorm_train_normalize.cuh

}  // namespace row_standardize_segments

extern "C" void {{ENTRY}}({{T}}* out, const {{T}}* x, float eps, int rows, int cols) {
  using namespace row_standardize_segments;
  if (rows <= 0 || cols <= 0) return;
  int const splits = splits_for(1, rows, cols);
  Scratch s;
  if (!launch_stats(nullptr, nullptr, x, nullptr, nullptr, eps, 1, rows, cols, splits, s)) return;  // no memory
  dim3 const grid(static_cast<unsigned>(splits), static_cast<unsigned>(rows < 65535 ? rows : 65535));
  normalize_kernel<<<grid, BLOCK, 0, kopt_strategy::launch_stream()>>>(out, x, 1, rows, cols, s.constants);
}
