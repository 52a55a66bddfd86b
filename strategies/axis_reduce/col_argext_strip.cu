// Template of the strategies col_argmax_strip (col_argmax family) and col_argmin_strip (col_argmin family:
// the manifest's defines set ARGMIN = 1, the comparison reversed: the smallest value wins, a NaN still wins
// over every number, the first on ties), kernel mode. out[c] = the row of the largest in[r*cols + c] over r <
// rows, a row-major rows x cols matrix (torch.argmax(dim=0) with 32-bit indices): the first such row on ties;
// a NaN wins over every number, as PyTorch (the column's first NaN). A block owns a strip of STRIP
// consecutive columns and walks every row of it: its threads across the strip read one row's stretch with
// contiguous 128-bit loads (kVec columns per thread), its threads down the strip take every (BLOCK / (STRIP /
// kVec))-th row with UNROLL loads in flight, each keeping a (value, row) pair per column in registers; the
// pairs are merged over the block in shared memory (value, then row: a total order, so the tree keeps the
// first row) and each column's row is written. One kernel, no cross-block step, no atomics; any rows, cols
// and alignment (element loads when rows do not start on 16-byte boundaries). col_arg_strip.cuh holds the
// body (ARGMIN picks the direction).
//
// Knobs: STRIP columns per block; BLOCK threads per block; UNROLL rows in flight per thread; HINT the
// loads' cache policy (2: L2 evict-first + 256-byte fetches, 1: ld.global.cs, 0: ld.global.nc); PACKED 1
// folds BF16 pairs as 32-bit (value code, row) keys, about five ALU instructions per element where the
// float pairs take eleven (0: float pairs, the code before 2026-12; no effect on FP32); PAD 1 pads the
// shared pair arrays conflict-free (0: unpadded). col_arg_strip.cuh's header says how.
// Constraints: a strip's 16-byte packs fit the block (STRIP / 4 <= BLOCK), and UNROLL 128-bit loads per
// thread fit the registers. BLOCK stops at 512: the (value, row) scratch of a 1024-thread BF16 block would
// need 64 KiB of shared memory.
// kopt:knob STRIP = [32, 64, 128, 256, 512]
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob HINT = [0, 1, 2] resources=none
// kopt:knob PACKED = [1, 0] resources=none
// kopt:knob PAD = [1, 0] resources=none
// kopt:constraint STRIP <= 4 * BLOCK && BLOCK * UNROLL <= 4096
// kopt:launch grid=(max(1, ceil_div({{ARG3}}, STRIP))) block=(BLOCK) kernel={{ENTRY}}

#ifndef STRIP
#define STRIP 128
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
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

namespace col_argext_strip {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh
// kopt:include col_arg_strip.cuh

}  // namespace col_argext_strip

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{I}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace col_argext_strip;
  __shared__ StripValues values;
  __shared__ StripRows at_rows;
  int const tx = static_cast<int>(threadIdx.x) % kLanes;
  int const ty = static_cast<int>(threadIdx.x) / kLanes;
  long long const c0 = static_cast<long long>(blockIdx.x) * STRIP;
  bool const vec = cols % kVec == 0 && kopt_strategy::aligned_to(in, 16u);
  float best[kVec];
  int at[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) {
    best[e] = worst();
    at[e] = 0;
  }
  strip_fold(best, at, in, 0, rows, cols, c0, vec, tx, ty, evict_first_policy());
  strip_combine(best, at, values, at_rows, tx, ty);
  strip_store(out, at, cols, c0, vec, tx, ty);
}
