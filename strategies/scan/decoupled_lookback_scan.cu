// Strategy decoupled_lookback_scan, scan family (kernel mode): inclusive prefix sum in ONE pass.
// Each block scans one tile of BLOCK * ITEMS elements. Tiles are handed out in launch order through a
// __device__ ticket counter, so every tile a block waits for belongs to a block that is already running.
// Within a tile, warp w owns 32 * ITEMS consecutive elements, read and written as rows of 32 128-bit
// packs (one pack per lane per row, so every access of a warp is contiguous); each row is scanned with
// warp shuffles and carried into the next, then warp totals are scanned by warp 0.
// Look-back: a tile publishes its aggregate, then warp 0 reads the status words of the 32 preceding
// tiles at once, waits until all of them have published, adds values back to the nearest tile that has
// published its inclusive prefix (or moves 32 tiles further back), and publishes its own inclusive prefix.
// A status word is one 64-bit value (30-bit epoch, 2-bit flag, FP32 value) written and read with single
// volatile accesses, so no fence is needed between a value and its flag. The epoch (the ticket counter's
// upper half, advanced by the block that draws the last ticket) marks which launch wrote a word, so the
// status array never needs clearing and every launch, graph replays included, starts clean.
// Sums are FP32 for FP32 and BF16 storage, each output rounded once. Misaligned buffers and partial packs
// use element-wise accesses, so any alignment and any n work.
//
// Knobs: BLOCK threads per block; ITEMS elements per thread (a tile is BLOCK * ITEMS elements, held in
// registers); MIN_BLOCKS the __launch_bounds__ minimum of resident blocks per SM (caps registers).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob ITEMS = [8, 16, 24, 32]
// kopt:knob MIN_BLOCKS = [1, 2] resources=decreasing
// kopt:constraint (ITEMS + 32) * BLOCK * MIN_BLOCKS <= 65536
// kopt:constraint ceil_div({{ARG2}}, BLOCK * ITEMS) <= 1048576
// kopt:launch grid=(max(1, ceil_div({{ARG2}}, BLOCK * ITEMS))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 16
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 1
#endif

namespace decoupled_lookback_scan {

using T = {{T}};
constexpr int kPack = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kRows = ITEMS / kPack;                     // packs per thread
constexpr int kWarps = BLOCK / 32;
static_assert(ITEMS % 8 == 0, "ITEMS is a whole number of packs for FP32 (4) and BF16 (8)");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");

// kopt:include warp_inclusive.cuh
// kopt:include tile_status.cuh
// kopt:include tile_rows.cuh

// Waits until all 32 tiles of the window have published.
__device__ __forceinline__ unsigned read_window(long long index, unsigned epoch, unsigned long long& word) {
  unsigned flag = 0u;
  while (true) {
    word = window_status(index, epoch);
    flag = status_flag(word, epoch);
    if (__all_sync(0xffffffffu, flag != 0u)) break;
  }
  return __ballot_sync(0xffffffffu, flag == kFlagInclusive);
}

}  // namespace decoupled_lookback_scan

extern "C" __global__ void __launch_bounds__(BLOCK, MIN_BLOCKS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int n) {
  using namespace decoupled_lookback_scan;
  __shared__ unsigned long long ticket_shared;
  __shared__ float warp_offsets[kWarps];
  __shared__ float tile_offset;
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;

  TileTicket const ticket = draw_tile(ticket_shared);
  long long const tile = ticket.tile;

  // Load: row r of warp w is 32 packs starting at tile_begin + (w * kRows + r) * 32 * kPack.
  long long const warp_begin =
      tile * (static_cast<long long>(BLOCK) * ITEMS) + static_cast<long long>(warp) * 32 * ITEMS;
  bool const vector_ok = kopt_strategy::aligned_to(in, 16u) && kopt_strategy::aligned_to(out, 16u);
  float v[kRows][kPack];
  load_rows(v, in, warp_begin, n, lane, vector_ok);
  float const running = scan_rows(v, lane);
  if (lane == 0) warp_offsets[warp] = running;  // the warp's total for now
  __syncthreads();

  if (warp == 0) {
    float const prefix = scan_warp_totals_and_look_back(warp_offsets, ticket, lane);
    if (lane == 0) tile_offset = prefix;
  }
  __syncthreads();

  float const add = tile_offset + warp_offsets[warp];
  store_rows(out, v, add, warp_begin, n, lane, vector_ok);
}
