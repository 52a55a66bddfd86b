// Strategy row_scan_tile_lookback, row_scan family (kernel mode): out[r*cols + c] = in[r*cols] + ... +
// in[r*cols + c] for every row r < rows and column c < cols of a row-major rows x cols matrix (an inclusive
// cumulative sum along the last axis, torch.cumsum(x, dim=-1)), with FP32 running sums and each output
// rounded once to T, in ONE pass. Each row is cut into tiles of BLOCK * ITEMS elements, one block per tile
// (rows * ceil(cols / tile) blocks), so a few long rows still fill the GPU. Within a tile, warp w owns
// 32 * ITEMS consecutive elements, read and written as rows of 32 128-bit packs (contiguous per warp),
// scanned in registers with warp shuffles (tile_rows.cuh); warp 0 scans the warp totals (one barrier each
// side). Tiles of one row are joined by a decoupled look-back (tile_status.cuh, as decoupled_lookback_scan):
// tiles are handed out in launch order through a __device__ ticket counter, every tile publishes its
// aggregate, and warp 0 adds up the status words of the tiles before it, 32 at a time, back to the
// nearest published inclusive prefix. A row's first tile publishes its aggregate as an inclusive prefix
// at once (nothing of its row precedes it), so a look-back never passes it into the row before: a window
// of 32 status words may reach into the previous row's tiles (earlier tickets, so they publish), but the
// sum stops at the row's first tile at the latest. When a row fits in one tile, rows are independent:
// no ticket, no status word, no waiting. Status words carry a launch epoch, so nothing is cleared between
// calls. Packs are used when cols is a multiple of 4 (FP32) or 8 (BF16) and both matrices are 16-byte
// aligned (every row starts on a 16-byte boundary); otherwise elements are read and written one by one.
//
// Knobs: BLOCK threads per block; ITEMS elements per thread (a tile is BLOCK * ITEMS elements, held in
// registers); MIN_BLOCKS the __launch_bounds__ minimum of resident blocks per SM (caps registers).
// Constraints: registers for ITEMS values; when rows span several tiles, at most 2^20 tiles in all (the
// status array's size).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob ITEMS = [8, 16, 24, 32]
// kopt:knob MIN_BLOCKS = [1, 2] resources=decreasing
// kopt:constraint (ITEMS + 32) * BLOCK * MIN_BLOCKS <= 65536
// kopt:constraint {{ARG3}} <= BLOCK * ITEMS || {{ARG2}} * ceil_div({{ARG3}}, BLOCK * ITEMS) <= 1048576
// kopt:launch grid=(max(1, {{ARG2}} * ceil_div({{ARG3}}, BLOCK * ITEMS))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 16
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 1
#endif

namespace row_scan_tile_lookback {

using T = {{T}};
constexpr int kPack = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kRows = ITEMS / kPack;                     // packs per thread
constexpr int kWarps = BLOCK / 32;
constexpr long long kTile = static_cast<long long>(BLOCK) * ITEMS;
static_assert(ITEMS % 8 == 0, "ITEMS is a whole number of packs for FP32 (4) and BF16 (8)");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");

// kopt:include warp_inclusive.cuh
// kopt:include tile_status.cuh
// kopt:include tile_rows.cuh

// Waits only until every tile up to the nearest one with an inclusive prefix has published (all 32 if
// none has): tiles of the previous row beyond this row's first tile are never waited for.
__device__ __forceinline__ unsigned read_window(long long index, unsigned epoch, unsigned long long& word) {
  while (true) {
    word = window_status(index, epoch);
    unsigned const flag = status_flag(word, epoch);
    unsigned const ready = __ballot_sync(0xffffffffu, flag != 0u);
    unsigned const inclusive = __ballot_sync(0xffffffffu, flag == kFlagInclusive);
    unsigned const needed = inclusive != 0u ? ((inclusive & (0u - inclusive)) << 1) - 1u : 0xffffffffu;
    if ((ready & needed) == needed) return inclusive;
  }
}

// Warp 0, once every warp has put its total in warp_totals[warp]: turns warp_totals into the warps'
// exclusive offsets within the tile and returns the sum of the row's elements before the tile. When
// `chained` (rows span several tiles) it publishes the tile's aggregate (a row's first tile: as its
// inclusive prefix), looks back, and publishes the inclusive prefix.
__device__ __forceinline__ float row_tile_prefix(float* warp_totals, TileTicket ticket, bool first,
                                                 bool chained, int lane) {
  float const total = lane < kWarps ? warp_totals[lane] : 0.0f;
  float const inclusive = warp_inclusive(total, lane);
  float const aggregate = __shfl_sync(0xffffffffu, inclusive, 31);
  float const exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
  if (lane < kWarps) warp_totals[lane] = lane == 0 ? 0.0f : exclusive;  // own slot: read above
  if (!chained) return 0.0f;
  if (first) {
    if (lane == 0) store_status(ticket.tile, make_status(ticket.epoch, kFlagInclusive, aggregate));
    return 0.0f;
  }
  if (lane == 0) store_status(ticket.tile, make_status(ticket.epoch, kFlagAggregate, aggregate));
  float const prefix = look_back(ticket.tile, ticket.epoch, lane);
  if (lane == 0) store_status(ticket.tile, make_status(ticket.epoch, kFlagInclusive, prefix + aggregate));
  return prefix;
}

}  // namespace row_scan_tile_lookback

extern "C" __global__ void __launch_bounds__(BLOCK, MIN_BLOCKS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace row_scan_tile_lookback;
  __shared__ unsigned long long ticket_shared;
  __shared__ float warp_offsets[kWarps];
  __shared__ float tile_offset;
  if (rows <= 0 || cols <= 0) return;  // the whole grid: no ticket is drawn
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;

  // The launch has rows * tiles_per_row blocks; tiles are numbered row after row.
  long long const tiles_per_row = (static_cast<long long>(cols) + kTile - 1) / kTile;
  bool const chained = tiles_per_row > 1;
  TileTicket ticket{static_cast<long long>(blockIdx.x), 0u};
  if (chained) ticket = draw_tile(ticket_shared);
  long long const row = ticket.tile / tiles_per_row;
  long long const piece = ticket.tile - row * tiles_per_row;  // the tile's place in its row
  long long const row_begin = row * static_cast<long long>(cols);
  long long const row_end = row_begin + cols;
  long long const warp_begin = row_begin + piece * kTile + static_cast<long long>(warp) * 32 * ITEMS;
  bool const vector_ok =
      cols % kPack == 0 && kopt_strategy::aligned_to(in, 16u) && kopt_strategy::aligned_to(out, 16u);

  float v[kRows][kPack];
  load_rows(v, in, warp_begin, row_end, lane, vector_ok);
  float const running = scan_rows(v, lane);
  if (lane == 0) warp_offsets[warp] = running;  // the warp's total for now
  __syncthreads();

  if (warp == 0) {
    float const prefix = row_tile_prefix(warp_offsets, ticket, piece == 0, chained, lane);
    if (lane == 0) tile_offset = prefix;
  }
  __syncthreads();

  float const add = tile_offset + warp_offsets[warp];
  store_rows(out, v, add, warp_begin, row_end, lane, vector_ok);
}
