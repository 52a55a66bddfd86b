// Template of the strategies mid_argmax_split_rows (mid_argmax family) and mid_argmin_split_rows (mid_argmin
// family: the manifest's defines set ARGMIN = 1, the smallest value winning), kernel mode. out[b*cols + c] =
// the r < rows of the largest in[(b*rows + r)*cols + c]: an arg-reduction over the middle dimension of a
// row-major batch x rows x cols tensor (torch.argmax(x, dim=1) of a 3-D tensor; any dimension but the last
// of any tensor), the first such r on ties, a NaN winning over every number as in PyTorch, the indices of
// the contract's index type I (int64 as PyTorch returns them, or int32). Each of the batch's rows x cols slabs
// is col_argmax_split_rows's matrix: the grid is (batch x strips) x pieces, block (x, y) owning the strip
// of STRIP columns x % strips of slab x / strips and the y-th of `pieces` equal stretches of its rows (the
// launch line picks pieces so that about GRID blocks run, at least 64 rows each). Inside a block:
// contiguous 128-bit loads across the strip, UNROLL rows in flight per thread, a (value, row) pair per
// column in registers merged over the block in shared memory (col_arg_strip.cuh); with several pieces the
// strip's last block (a self-resetting ticket) merges their pairs by value, then row, so the first row wins
// ties whatever order the pieces finish in: deterministic, one kernel, no pre-initialised output.
//
// Knobs: STRIP columns per block; BLOCK threads per block; UNROLL rows in flight per thread; GRID the
// blocks aimed at (multiples of the H200's 132 SMs); HINT the loads' cache policy (2: L2 evict-first +
// 256-byte fetches, 1: ld.global.cs, 0: ld.global.nc); PACKED 1 folds BF16 pairs as 32-bit (value code,
// row) keys, about five ALU instructions per element where the float pairs take eleven (0: float pairs,
// the code before 2026-12; no effect on FP32); PAD 1 pads the shared pair arrays conflict-free (0:
// unpadded). col_arg_strip.cuh's header says how.
// Constraints: a strip's 16-byte packs fit the block (STRIP / 4 <= BLOCK: also what the last block's
// float4 merge needs), and UNROLL 128-bit loads per thread fit the registers. BLOCK stops at 512: the
// (value, row) scratch of a 1024-thread BF16 block would need 64 KiB of shared memory.
// kopt:knob STRIP = [32, 64, 128, 256]
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [264, 528, 1056] resources=none
// kopt:knob HINT = [0, 1, 2] resources=none
// kopt:knob PACKED = [1, 0] resources=none
// kopt:knob PAD = [1, 0] resources=none
// kopt:constraint STRIP <= 4 * BLOCK && BLOCK * UNROLL <= 4096
// kopt:launch grid=(max(1, {{ARG2}} * ceil_div({{ARG4}}, STRIP)), max(1, min(ceil_div({{ARG3}}, 64), ceil_div(GRID, max(1, {{ARG2}} * ceil_div({{ARG4}}, STRIP)))))) block=(BLOCK) kernel={{ENTRY}}

#ifndef STRIP
#define STRIP 64
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 528
#endif
#ifndef HINT
#define HINT 2
#endif
#ifndef PACKED
#define PACKED 1
#endif
#ifndef PAD
#define PAD 1
#endif

namespace mid_argext_split_rows {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh
// kopt:include col_arg_strip.cuh
// kopt:include mid_block.cuh

// With pieces >= 2, pieces <= ceil_div(GRID, batch * strips) gives batch * strips < GRID and
// batch * strips * pieces < 2 * GRID: that many strips' pairs and GRID counters are enough.
__device__ __align__(16) float partial_values[2 * GRID * STRIP];
__device__ __align__(16) int partial_rows[2 * GRID * STRIP];
__device__ unsigned int tickets[GRID];

}  // namespace mid_argext_split_rows

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{I}}* __restrict__ out, const {{T}}* __restrict__ in, int batch, int rows, int cols) {
  using namespace mid_argext_split_rows;
  __shared__ __align__(16) StripValues values;
  __shared__ __align__(16) StripRows at_rows;
  MidBlock b;
  if (!mid_block(batch, cols, b)) return;
  T const* const slab_in = in + b.slab * rows * cols;
  {{I}}* const slab_out = out + b.slab * cols;
  int const tx = static_cast<int>(threadIdx.x) % kLanes;
  int const ty = static_cast<int>(threadIdx.x) / kLanes;
  mid_rows(rows, b);
  // A slab starts on a 16-byte boundary whenever its rows do (cols a multiple of the pack).
  bool const vec = cols % kVec == 0 && kopt_strategy::aligned_to(in, 16u);
  float best[kVec];
  int at[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) {
    best[e] = worst();
    at[e] = 0;
  }
  strip_fold(best, at, slab_in, b.r0, b.r1, cols, b.c0, vec, tx, ty, evict_first_policy());
  strip_combine(best, at, values, at_rows, tx, ty);
  unsigned int const pieces = gridDim.y;
  if (pieces == 1) {
    strip_store(slab_out, at, cols, b.c0, vec, tx, ty);
    return;
  }
  split_finish(slab_out, best, at, partial_values, partial_rows, tickets, values, at_rows, b.strip,
               b.piece, pieces, cols, b.c0, vec, tx, ty);
}
