// Strategies loss_rows_unrolled_single_pass (loss_rows family) and loss_rows_broadcast_unrolled_single_pass
// (loss_rows_broadcast, KOPT_LOSS_BROADCAST = 1), kernel mode: *out = finish(sum_{i < rows, j < cols} map(x[i][j],
// y')) with x a rows x cols matrix (row-major) and y' = y[i][j] (loss_rows: y is rows x cols too) or y[j]
// (loss_rows_broadcast: y is one vector of cols values, broadcast along x's rows as PyTorch broadcasts a target of
// the last dimension's size). `finish` reads s (the FP32 sum), rows and cols as floats: s / rows for KL
// divergence's reduction "batchmean" (the sum over the first dimension's count), s / (rows * cols) for a mean over
// every element. One kernel of one resident wave, as loss_unrolled_single_pass: GRID blocks (fewer for small
// inputs) stream x with UNROLL 128-bit loads in flight per thread under the HINT cache policy, reduce each block
// with warp shuffles, and the block that draws the last ticket of a self-resetting __device__ counter adds the
// per-block partials in a fixed order, applies `finish` and rounds once to T (deterministic; the output needs no
// initialisation). loss_rows walks x and y as one stream of rows * cols pairs with unrolled_single_pass.cuh (a
// 64-bit count); loss_rows_broadcast with rows_broadcast_partial.cuh, which finds each pack's column without a
// division and reads y by column through the cache (128-bit packs of y where cols is a multiple of the pack).
//
// Knobs: BLOCK threads per block; UNROLL 128-bit loads of x (and of y) in flight per thread; GRID the most blocks
// (multiples of the H200's 132 SMs); HINT the cache policy of x's loads (and of y's for loss_rows; 2: L2
// evict-first + 256-byte L2 fetch, 1: ld.global.cs streaming, 0: plain ld.global.nc).
// Constraints: at most 2048 resident threads per SM; UNROLL x threads per SM bounded so the loaded registers fit.
// kopt:knob BLOCK = [256, 512, 1024]
// kopt:knob UNROLL = [2, 4, 8]
// kopt:knob GRID = [132, 264, 528, 1056] resources=none
// kopt:knob HINT = [0, 1, 2] resources=none
// kopt:constraint GRID * BLOCK <= 270336
// kopt:constraint GRID * BLOCK * UNROLL <= 1081344
// kopt:constraint GRID * BLOCK < 270336 || UNROLL <= 2
// kopt:launch grid=(max(1, min(GRID, ceil_div({{ARG3}} * {{ARG4}}, BLOCK*UNROLL*4)))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 264
#endif
#ifndef HINT
#define HINT 2
#endif
#ifndef KOPT_LOSS_BROADCAST
#define KOPT_LOSS_BROADCAST 0
#endif
#define KOPT_LOSS_ROWS 1  // loss_op.cuh: `finish` over s, rows and cols

namespace loss_rows {

using T = {{T}};

// kopt:include loss_op.cuh
// kopt:include block_combine.cuh
// kopt:include last_block_combine.cuh
// kopt:include hinted_loads.cuh
// kopt:include unrolled_single_pass.cuh
#if KOPT_LOSS_BROADCAST
// kopt:include rows_broadcast_partial.cuh
#endif

}  // namespace loss_rows

extern "C" __global__ void __launch_bounds__(BLOCK, loss_rows::kMinBlocksPerSm)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ x, const {{T}}* __restrict__ y, int rows, int cols) {
  using namespace loss_rows;
  int const r = rows < 0 ? 0 : rows;
  int const c = cols < 0 ? 0 : cols;
  long long const count = static_cast<long long>(r) * c;
#if KOPT_LOSS_BROADCAST
  // y by 128-bit packs beside x's when every pack of x starts a run of kVec columns of one row.
  unsigned long long const xy = reinterpret_cast<unsigned long long>(x) | reinterpret_cast<unsigned long long>(y);
  bool const y_packs = c % kVec == 0 && (xy & 15ull) == 0;
  float value = Op::identity();
  if (count > 0) value = y_packs ? broadcast_partial<true>(x, y, count, c) : broadcast_partial<false>(x, y, count, c);
#else
  float const value = thread_partial(x, y, count);
#endif
  last_block_combine<BLOCK>(out, value, Finish{static_cast<float>(r), static_cast<float>(c)});
}
