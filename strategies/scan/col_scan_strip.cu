// Strategy col_scan_strip, col_scan family (kernel mode): out[r*cols + c] = in[c] + in[cols + c] + ... +
// in[r*cols + c] for every row r < rows and column c < cols of a row-major rows x cols matrix (an inclusive
// cumulative sum along the first axis, torch.cumsum(x, dim=0)), with FP32 running sums and each output
// rounded once to T. A block owns a strip of STRIP consecutive columns and walks all the rows of it, a
// tile of ROWS rows at a time (col_tile.cuh): its threads across the strip read and write each row's
// stretch with contiguous 128-bit accesses, its threads down the strip each load kUnroll consecutive rows
// of the tile (all in flight before the first add) and scan them in registers, a shuffle scan joins the
// groups of a warp and one scanner thread per column joins the warps in shared memory, adding the
// column's running sum of the tiles above (a register of the scanner). Two barriers per tile; one kernel,
// no cross-block step, no atomics; every element is read once and written once, by the same thread, read
// first (so out may be in). Any rows, cols and alignment (element accesses when rows do not start on
// 16-byte boundaries). The strips alone are the parallelism: ceil(cols / STRIP) blocks.
//
// Knobs: STRIP columns per block; BLOCK threads per block; ROWS rows per tile (kUnroll = ROWS * STRIP /
// (BLOCK * kPack) rows per thread, ROWS * STRIP / BLOCK values in registers whatever the element type);
// PACKED 1 keeps the rows as loaded 16-byte packs (half the registers of widened BF16 values) and writes
// each with one 128-bit store (col_tile.cuh; 0: widened FP32 values and the four 32-bit stores per pack of
// the code before 2026-12).
// Constraints: one scanner per column (STRIP <= BLOCK); at least one BF16 row per thread (8 values, the
// BF16 pack); registers for the values (at most 64, fewer for big blocks); the two scratch arrays fit 16 KiB.
// kopt:knob STRIP = [32, 64, 128, 256]
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob ROWS = [16, 32, 64, 128, 256]
// kopt:knob PACKED = [1, 0] resources=none
// kopt:constraint STRIP <= BLOCK && ROWS * STRIP >= 8 * BLOCK && ROWS * STRIP <= 64 * BLOCK
// kopt:constraint (ROWS * STRIP / BLOCK + 32) * BLOCK <= 65536 && STRIP * BLOCK <= 65536
// kopt:launch grid=(max(1, ceil_div({{ARG3}}, STRIP))) block=(BLOCK) kernel={{ENTRY}}

#ifndef STRIP
#define STRIP 64
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ROWS
#define ROWS 64
#endif
#ifndef PACKED
#define PACKED 1
#endif

namespace col_scan_strip {

using T = {{T}};

// kopt:include col_tile.cuh

}  // namespace col_scan_strip

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace col_scan_strip;
  __shared__ ColTileScratch scratch;
  if (rows <= 0 || cols <= 0) return;
  int const tid = static_cast<int>(threadIdx.x);
  int const tx = tid % kLanes;
  int const ty = tid / kLanes;
  int const lane = tid & 31;
  int const slab = tid / kSlabWidth;
  long long const c0 = static_cast<long long>(blockIdx.x) * STRIP;
  bool const vec = cols % kPack == 0 && kopt_strategy::aligned_to(in, 16u) && kopt_strategy::aligned_to(out, 16u);
  float carry = 0.0f;  // the scanner's column (slot tid): the sum of the tiles above

#pragma unroll 1
  for (long long r0 = 0; r0 < rows; r0 += ROWS) {
#if PACKED
    uint4 raw[kUnroll];
    float before[kPack];
    load_tile_packed(raw, in, r0, rows, cols, c0, vec, tx, ty);
    scan_tile_packed(raw, before, scratch, tx, lane, slab);
#else
    float v[kUnroll][kPack];
    float before[kPack];
    load_tile(v, in, r0, rows, cols, c0, vec, tx, ty);
    scan_tile(v, before, scratch, tx, lane, slab);
#endif
    __syncthreads();
    if (tid < STRIP) {
      float const total = slab_total(scratch, tid);
      slab_offsets(scratch, tid, carry);
      carry += total;
    }
    __syncthreads();
#if PACKED
    store_tile_packed(out, raw, before, scratch, r0, rows, cols, c0, vec, tx, ty, slab);
#else
    store_tile(out, v, before, scratch, r0, rows, cols, c0, vec, tx, ty, slab);
#endif
  }
}
