// Strategy mid_reduce_split_rows, mid_reduce family (kernel mode): out[b*cols + c] = finish(combine over
// in[(b*rows + r)*cols + c] for r < rows), a reduction over the middle dimension of a row-major
// batch x rows x cols tensor (torch.sum(x, dim=1) of a 3-D tensor; any dimension but the last of any
// tensor, the dimensions before it being the batch and those after it the columns). Each of the batch's
// rows x cols slabs is col_reduce_split_rows's matrix: the grid is (batch x strips) x pieces, block (x, y)
// owning the strip of STRIP columns x % strips of slab x / strips and the y-th of `pieces` equal stretches
// of its rows (the launch line picks pieces so that about GRID blocks run, at least 64 rows each: a large
// batch of narrow slabs needs no split, a few tall slabs do). Inside a block: contiguous 128-bit loads
// across the strip, UNROLL rows in flight per thread, FP32 partial columns in registers, a fixed
// shared-memory tree (col_strip.cuh); with several pieces the strip's last block (a self-resetting ticket)
// combines their partials in a fixed order (col_split.cuh). Deterministic, one kernel, no float atomics,
// any sizes and alignment (element loads when cols is not a multiple of the 16-byte pack).
//
// Knobs: STRIP columns per block; BLOCK threads per block; UNROLL rows in flight per thread; GRID the
// blocks aimed at (multiples of the H200's 132 SMs); HINT the loads' cache policy (2: L2 evict-first +
// 256-byte fetches, 1: ld.global.cs, 0: ld.global.nc).
// Constraints: a strip's 16-byte packs fit the block (STRIP / 4 <= BLOCK: also what the last block's float4
// combine needs), and UNROLL 128-bit loads per thread fit the 64 registers a 1024-thread block leaves.
// kopt:knob STRIP = [32, 64, 128, 256]
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [264, 528, 1056] resources=none
// kopt:knob HINT = [0, 1, 2] resources=none
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

namespace mid_reduce_split_rows {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh
// kopt:include axis_op.cuh
// kopt:include col_strip.cuh
// kopt:include col_split.cuh
// kopt:include mid_block.cuh

// With pieces >= 2, pieces <= ceil_div(GRID, batch * strips) gives batch * strips < GRID and
// batch * strips * pieces < 2 * GRID: that many strips' partial columns and GRID counters are enough.
__device__ __align__(16) float partials[2 * GRID * STRIP];
__device__ unsigned int tickets[GRID];

}  // namespace mid_reduce_split_rows

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int batch, int rows, int cols) {
  using namespace mid_reduce_split_rows;
  __shared__ __align__(16) StripScratch scratch;
  MidBlock b;
  if (!mid_block(batch, cols, b)) return;
  T const* const slab_in = in + b.slab * rows * cols;
  T* const slab_out = out + b.slab * cols;
  int const tx = static_cast<int>(threadIdx.x) % kLanes;
  int const ty = static_cast<int>(threadIdx.x) / kLanes;
  mid_rows(rows, b);
  // A slab starts on a 16-byte boundary whenever its rows do (cols a multiple of the pack).
  bool const vec = cols % kVec == 0 && kopt_strategy::aligned_to(in, 16u);
  float acc[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) acc[e] = Op::identity();
  if (b.r0 < b.r1) strip_accumulate(acc, slab_in, b.r0, b.r1, cols, b.c0, vec, tx, ty, evict_first_policy());
  strip_combine(acc, scratch, tx, ty);
  unsigned int const pieces = gridDim.y;
  if (pieces == 1) {
    strip_store(slab_out, acc, rows, cols, b.c0, vec, tx, ty);
    return;
  }
  split_finish(slab_out, acc, partials + b.strip * pieces * STRIP, &tickets[b.strip], scratch, b.piece, pieces,
               rows, cols, b.c0, vec, tx, ty);
}
