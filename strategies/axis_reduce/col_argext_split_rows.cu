// Template of the strategies col_argmax_split_rows (col_argmax family) and col_argmin_split_rows (col_argmin
// family: the manifest's defines set ARGMIN = 1, the comparison reversed: the smallest value wins, a NaN
// still wins over every number, the first on ties), kernel mode. out[c] = the row of the largest in[r*cols +
// c] over r < rows, a row-major rows x cols matrix (torch.argmax(dim=0) with 32-bit indices): the first such
// row on ties; a NaN wins over every number, as PyTorch (the column's first NaN). For shapes whose column
// strips alone are too few to fill the GPU (tall-skinny matrices of a few hundred columns or fewer and
// millions of rows; square ones), the grid is strips x pieces: block (x, y) owns the strip of STRIP columns x
// and the y-th of `pieces` equal stretches of rows (the launch line picks pieces so that about GRID blocks
// run, at least 64 rows each). Inside a block it is col_argmax_strip: contiguous 128-bit loads across the
// strip, UNROLL rows in flight per thread, a (value, row) pair per column in registers, merged over the block
// in shared memory. Each block then stores its strip's pairs in __device__ arrays, fences and draws a ticket
// from its strip's __device__ counter (atomicInc, self-resetting); the strip's last block merges the pieces'
// pairs from L2 (float4 / int4 loads over all its threads, then a shared-memory tree) and writes each
// column's row. Pairs merge by value, then row (a total order), so the first row wins ties whatever the order
// pieces finish in: deterministic, one kernel, no pre-initialised output; one piece means no ticket at all.
// col_arg_strip.cuh holds the body (ARGMIN picks the direction).
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
#ifndef PACKED
#define PACKED 1
#endif
#ifndef PAD
#define PAD 1
#endif

namespace col_argext_split_rows {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh
// kopt:include col_arg_strip.cuh

// With pieces >= 2, pieces <= ceil_div(GRID, strips) gives strips < GRID and strips * pieces < 2 * GRID:
// that many strips' pairs and GRID counters are enough.
__device__ __align__(16) float partial_values[2 * GRID * STRIP];
__device__ __align__(16) int partial_rows[2 * GRID * STRIP];
__device__ unsigned int tickets[GRID];

}  // namespace col_argext_split_rows

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{I}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace col_argext_split_rows;
  __shared__ __align__(16) StripValues values;
  __shared__ __align__(16) StripRows at_rows;
  int const tx = static_cast<int>(threadIdx.x) % kLanes;
  int const ty = static_cast<int>(threadIdx.x) / kLanes;
  long long const strip = blockIdx.x;
  long long const c0 = strip * STRIP;
  unsigned int const pieces = gridDim.y;
  unsigned int const piece = blockIdx.y;
  long long const chunk = (static_cast<unsigned int>(rows) + pieces - 1u) / pieces;  // 32-bit division
  long long const r0 = piece * chunk;
  long long const r1 = r0 + chunk < rows ? r0 + chunk : rows;
  bool const vec = cols % kVec == 0 && kopt_strategy::aligned_to(in, 16u);
  float best[kVec];
  int at[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) {
    best[e] = worst();
    at[e] = 0;
  }
  strip_fold(best, at, in, r0, r1, cols, c0, vec, tx, ty, evict_first_policy());
  strip_combine(best, at, values, at_rows, tx, ty);
  if (pieces == 1) {
    strip_store(out, at, cols, c0, vec, tx, ty);
    return;
  }
  split_finish(out, best, at, partial_values, partial_rows, tickets, values, at_rows, strip, piece, pieces,
               cols, c0, vec, tx, ty);
}
