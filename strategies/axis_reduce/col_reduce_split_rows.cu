// Strategy col_reduce_split_rows, col_reduce family (kernel mode): out[c] = finish(combine over
// in[r*cols + c] for r < rows), a row-major rows x cols matrix, for shapes whose column strips alone are
// too few to fill the GPU (tall-skinny matrices of a few hundred columns or fewer and millions of rows;
// square ones). The grid is strips x pieces: block (x, y) owns the strip of STRIP columns x and the y-th
// of `pieces` equal stretches of rows (the launch line picks pieces so that about GRID blocks run, at
// least 64 rows each). Inside a block it is col_reduce_strip: contiguous 128-bit loads across the strip,
// UNROLL rows in flight per thread, FP32 partial columns in registers, a fixed shared-memory tree. Each
// block then stores its STRIP partial columns in a __device__ array and draws a ticket from its strip's
// __device__ counter (self-resetting); the strip's last block combines the pieces' partials in a fixed
// order and writes the values rounded once to T (col_split.cuh). Deterministic, one kernel, no float
// atomics; one piece means no ticket at all.
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
// kopt:launch grid=(max(1, ceil_div({{ARG3}}, STRIP)), max(1, min(ceil_div({{ARG2}}, 64), ceil_div(GRID, max(1, ceil_div({{ARG3}}, STRIP)))))) block=(BLOCK) kernel={{ENTRY}}

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

namespace col_reduce_split_rows {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh
// kopt:include axis_op.cuh
// kopt:include col_strip.cuh
// kopt:include col_split.cuh

// With pieces >= 2, pieces <= ceil_div(GRID, strips) gives strips < GRID and strips * pieces < 2 * GRID:
// that many strips' partial columns and GRID counters are enough.
__device__ __align__(16) float partials[2 * GRID * STRIP];
__device__ unsigned int tickets[GRID];

}  // namespace col_reduce_split_rows

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace col_reduce_split_rows;
  __shared__ __align__(16) StripScratch scratch;
  int const tx = static_cast<int>(threadIdx.x) % kLanes;
  int const ty = static_cast<int>(threadIdx.x) / kLanes;
  long long const strip = blockIdx.x;
  long long const c0 = strip * STRIP;
  unsigned int const pieces = gridDim.y;
  long long const piece = blockIdx.y;
  long long const chunk = (static_cast<unsigned int>(rows) + pieces - 1u) / pieces;  // 32-bit division
  long long const r0 = piece * chunk;
  long long const r1 = r0 + chunk < rows ? r0 + chunk : rows;
  bool const vec = cols % kVec == 0 && kopt_strategy::aligned_to(in, 16u);
  float acc[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) acc[e] = Op::identity();
  if (r0 < r1) strip_accumulate(acc, in, r0, r1, cols, c0, vec, tx, ty, evict_first_policy());
  strip_combine(acc, scratch, tx, ty);
  if (pieces == 1) {
    strip_store(out, acc, rows, cols, c0, vec, tx, ty);
    return;
  }
  split_finish(out, acc, partials + strip * pieces * STRIP, &tickets[strip], scratch, piece, pieces, rows, cols,
               c0, vec, tx, ty);
}
