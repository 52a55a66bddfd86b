// Strategy col_scan_split_rows, col_scan family (kernel mode): out[r*cols + c] = in[c] + in[cols + c] + ...
// + in[r*cols + c] for every row r < rows and column c < cols of a row-major rows x cols matrix (an
// inclusive cumulative sum along the first axis, torch.cumsum(x, dim=0)), with FP32 running sums and each
// output rounded once to T, in ONE pass, for shapes whose column strips alone are too few to fill the GPU
// (tall matrices of a few to a few hundred columns, square ones). The matrix is cut into tiles of ROWS rows
// x STRIP columns, one block per tile (ceil(rows / ROWS) * ceil(cols / STRIP) blocks). A block holds its
// tile in registers and scans it as col_scan_strip scans one tile (col_tile.cuh: contiguous 128-bit
// accesses across a row, kUnroll rows per thread in flight, a shuffle scan across the groups of a warp,
// one scanner thread per column across the warps). The tiles of a strip are joined by a decoupled
// look-back per column (the epoch-tagged 64-bit status words of tile_status.cuh, one per column of a
// tile): tiles are handed out in launch order through a __device__ ticket counter, row-chunk after
// row-chunk (tile = chunk * strips + strip), so every tile above a block's own belongs to a block that
// already runs; each scanner publishes its column's aggregate, then walks up its column kWindow tiles at a
// time (kWindow loads in flight), waiting only up to the nearest tile with a published inclusive prefix,
// and publishes its own inclusive prefix. A strip's first tile publishes its aggregate as an inclusive
// prefix at once. When the rows fit one tile, strips are independent: no ticket, no status word, no
// waiting. Status words carry a launch epoch, so nothing is cleared between calls. Every element is read
// once and written once, by the same thread, read first (so out may be in). Any rows, cols and alignment.
// tile_status.cuh's look_back() and scan_warp_totals_and_look_back() (one value per tile, for the flat
// scans) are not used; the per-column walk below replaces them.
//
// Knobs: STRIP columns per tile; BLOCK threads per block (up to 512: at 1024 threads, 64 registers each,
// ptxas spills); ROWS rows per tile (ROWS * STRIP / BLOCK values per thread in registers, whatever the
// element type); PACKED 1 keeps the rows as loaded 16-byte packs and writes each with one 128-bit store
// (col_tile.cuh; 0: widened FP32 values and the four 32-bit stores per pack of the code before 2026-12);
// WINDOW status words a scanner reads at once (4 before 2026-12; more moves a look-back that has to walk
// far, as in a single strip of thousands of tiles, more tiles per L2 round trip).
// Defaults: ROWS 128 since 2026-12 (was 64): with PACKED, a BF16 tile of 128 rows x 64 columns holds its
// 32 values per thread in 16 registers (58 in all, 4 blocks of 256 per SM), 16 KiB per tile as FP32's
// 64-row tile had; a BF16 tile of 64 rows is 8 KiB for the same per-tile cost (ticket, look-back, two
// barriers), which held BF16 at half of FP32's bandwidth. FP32 tiles of 128 rows take 74 registers (3
// blocks per SM, 32 KiB each).
// Constraints: as col_scan_strip (one scanner per column, at least one BF16 row per thread, registers,
// 16 KiB of scratch); when the rows span several tiles, the status words (one per column of every tile)
// fit the 2^20 of tile_status.cuh's array.
// kopt:knob STRIP = [32, 64, 128, 256]
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob ROWS = [16, 32, 64, 128, 256]
// kopt:knob PACKED = [1, 0] resources=none
// kopt:knob WINDOW = [4, 8, 16]
// kopt:constraint STRIP <= BLOCK && ROWS * STRIP >= 8 * BLOCK && ROWS * STRIP <= 64 * BLOCK
// kopt:constraint (ROWS * STRIP / BLOCK + 32) * BLOCK <= 65536 && STRIP * BLOCK <= 65536
// kopt:constraint {{ARG2}} <= ROWS || ceil_div({{ARG2}}, ROWS) * ceil_div({{ARG3}}, STRIP) * STRIP <= 1048576
// kopt:launch grid=(max(1, ceil_div({{ARG2}}, ROWS) * ceil_div({{ARG3}}, STRIP))) block=(BLOCK) kernel={{ENTRY}}

#ifndef STRIP
#define STRIP 64
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ROWS
#define ROWS 128
#endif
#ifndef PACKED
#define PACKED 1
#endif
#ifndef WINDOW
#define WINDOW 4
#endif

namespace col_scan_split_rows {

using T = {{T}};
constexpr int kWarps = BLOCK / 32;  // tile_status.cuh's scan_warp_totals_and_look_back (unused here)
constexpr int kWindow = WINDOW;     // status words of the tiles above read at once by a scanner

// kopt:include warp_inclusive.cuh
// kopt:include tile_status.cuh
// kopt:include col_tile.cuh

// tile_status.cuh's look_back() (one value per tile, not used here) calls read_window(); defined as
// decoupled_lookback_scan's (wait for all 32 tiles of a window) so that the declaration is complete.
__device__ __forceinline__ unsigned read_window(long long index, unsigned epoch, unsigned long long& word) {
  unsigned flag = 0u;
  while (true) {
    word = window_status(index, epoch);
    flag = status_flag(word, epoch);
    if (__all_sync(0xffffffffu, flag != 0u)) break;
  }
  return __ballot_sync(0xffffffffu, flag == kFlagInclusive);
}

// The scanner of column slot s of tile `tile` (chunk >= 1): the sum of the column over the tiles above,
// `strips` tiles apart. Reads kWindow status words, and once every tile up to the nearest one with an
// inclusive prefix (or all kWindow) has published, adds their values; stops at an inclusive prefix, else
// moves kWindow tiles up. A tile before the first reads as an inclusive prefix of 0.
__device__ __forceinline__ float column_look_back(long long tile, long long strips, unsigned epoch, int s) {
  float prefix = 0.0f;
  long long above = tile - strips;
  while (true) {
    unsigned long long word[kWindow];
#pragma unroll
    for (int j = 0; j < kWindow; ++j) {
      long long const t = above - j * strips;
      word[j] = t >= 0 ? load_status(t * STRIP + s) : make_status(epoch, kFlagInclusive, 0.0f);
    }
    bool ready = true;
    bool found = false;
    int stop = kWindow - 1;
#pragma unroll
    for (int j = 0; j < kWindow; ++j) {
      unsigned const flag = status_flag(word[j], epoch);
      if (!found) {
        if (flag == 0u) ready = false;
        if (flag == kFlagInclusive) {
          found = true;
          stop = j;
        }
      }
    }
    if (!ready) continue;  // read the same window again
#pragma unroll
    for (int j = 0; j < kWindow; ++j) {
      if (j <= stop) prefix += __uint_as_float(static_cast<unsigned>(word[j]));
    }
    if (found) return prefix;
    above -= kWindow * strips;
  }
}

}  // namespace col_scan_split_rows

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace col_scan_split_rows;
  __shared__ ColTileScratch scratch;
  __shared__ unsigned long long ticket_shared;
  if (rows <= 0 || cols <= 0) return;  // the whole grid: no ticket is drawn
  int const tid = static_cast<int>(threadIdx.x);
  int const tx = tid % kLanes;
  int const ty = tid / kLanes;
  int const lane = tid & 31;
  int const slab = tid / kSlabWidth;

  // The launch has chunks * strips blocks; tiles are numbered chunk after chunk.
  long long const strips = (static_cast<long long>(cols) + STRIP - 1) / STRIP;
  bool const chained = rows > ROWS;
  TileTicket ticket{static_cast<long long>(blockIdx.x), 0u};
  if (chained) ticket = draw_tile(ticket_shared);
  long long const chunk = ticket.tile / strips;
  long long const strip = ticket.tile - chunk * strips;
  long long const r0 = chunk * ROWS;
  long long const c0 = strip * STRIP;
  bool const vec = cols % kPack == 0 && kopt_strategy::aligned_to(in, 16u) && kopt_strategy::aligned_to(out, 16u);

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
  // Excluded by the launch constraint; never write past the status array.
  if (chained && (ticket.tile + 1) * STRIP > kMaxTiles) __trap();
  if (tid < STRIP) {
    float const aggregate = slab_total(scratch, tid);
    float prefix = 0.0f;
    if (chained) {
      long long const slot = ticket.tile * STRIP + tid;
      if (chunk == 0) {
        store_status(slot, make_status(ticket.epoch, kFlagInclusive, aggregate));
      } else {
        store_status(slot, make_status(ticket.epoch, kFlagAggregate, aggregate));
        prefix = column_look_back(ticket.tile, strips, ticket.epoch, tid);
        store_status(slot, make_status(ticket.epoch, kFlagInclusive, prefix + aggregate));
      }
    }
    slab_offsets(scratch, tid, prefix);
  }
  __syncthreads();
#if PACKED
  store_tile_packed(out, raw, before, scratch, r0, rows, cols, c0, vec, tx, ty, slab);
#else
  store_tile(out, v, before, scratch, r0, rows, cols, c0, vec, tx, ty, slab);
#endif
}
