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
constexpr long long kMaxTiles = 1 << 20;  // the launch constraint keeps the tile count within this
static_assert(ITEMS % 8 == 0, "ITEMS is a whole number of packs for FP32 (4) and BF16 (8)");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");

constexpr unsigned long long kFlagAggregate = 1ull;
constexpr unsigned long long kFlagInclusive = 2ull;
constexpr unsigned kEpochMask = 0x3fffffffu;

__device__ unsigned long long tile_status[kMaxTiles];  // zero at load: flag 0 = nothing published
__device__ unsigned long long ticket_counter = 0ull;   // epoch << 32 | tickets drawn in this launch

// kopt:include tile_status.cuh
// Warp 0: the sum of all tiles before `tile` (tile > 0), waiting for predecessors as needed.
__device__ __forceinline__ float look_back(long long tile, unsigned epoch, int lane) {
  float prefix = 0.0f;
  long long base = tile - 1;
  while (true) {
    long long const index = base - lane;  // lane 0 is the nearest predecessor
    unsigned long long word = 0ull;
    unsigned flag = 0u;
    while (true) {
      word = index >= 0 ? load_status(index) : make_status(epoch, kFlagInclusive, 0.0f);
      flag = static_cast<unsigned>(word >> 34) == epoch ? static_cast<unsigned>((word >> 32) & 3ull) : 0u;
      if (__all_sync(0xffffffffu, flag != 0u)) break;
    }
    unsigned const inclusive = __ballot_sync(0xffffffffu, flag == kFlagInclusive);
    int const stop = inclusive != 0u ? __ffs(static_cast<int>(inclusive)) - 1 : 31;
    float const value = lane <= stop ? __uint_as_float(static_cast<unsigned>(word)) : 0.0f;
    prefix += kopt_strategy::warp_sum(value);
    if (inclusive != 0u) return prefix;
    base -= 32;
  }
}

}  // namespace decoupled_lookback_scan

extern "C" __global__ void __launch_bounds__(BLOCK, MIN_BLOCKS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int n) {
  using namespace decoupled_lookback_scan;
  using kopt_strategy::Pack;
  __shared__ unsigned long long ticket_shared;
  __shared__ float warp_offsets[kWarps];
  __shared__ float tile_offset;
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;

  if (threadIdx.x == 0) {
    unsigned long long const drawn = atomicAdd(&ticket_counter, 1ull);
    ticket_shared = drawn;
    // The last ticket of this launch: back to ticket 0 of the next epoch.
    if (static_cast<unsigned>(drawn) == gridDim.x - 1u) atomicAdd(&ticket_counter, (1ull << 32) - gridDim.x);
  }
  __syncthreads();
  long long const tile = static_cast<long long>(static_cast<unsigned>(ticket_shared));
  unsigned const epoch = static_cast<unsigned>(ticket_shared >> 32) & kEpochMask;
  if (tile >= kMaxTiles) __trap();  // excluded by the launch constraint; never write past the status array

  // Load: row r of warp w is 32 packs starting at tile_begin + (w * kRows + r) * 32 * kPack.
  long long const warp_begin =
      tile * (static_cast<long long>(BLOCK) * ITEMS) + static_cast<long long>(warp) * 32 * ITEMS;
  bool const vector_ok = kopt_strategy::aligned_to(in, 16u) && kopt_strategy::aligned_to(out, 16u);
  float v[kRows][kPack];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    long long const i = warp_begin + (static_cast<long long>(r) * 32 + lane) * kPack;
    if (vector_ok && i + kPack <= n) {
      Pack<T, kPack> const p = kopt_strategy::load_pack<T, kPack>(in + i);
#pragma unroll
      for (int e = 0; e < kPack; ++e) v[r][e] = kopt_strategy::to_float(p.v[e]);
    } else {
#pragma unroll
      for (int e = 0; e < kPack; ++e) v[r][e] = i + e < n ? kopt_strategy::to_float(in[i + e]) : 0.0f;
    }
  }

  // Scan within the warp, row after row, carrying the running warp total.
  float running = 0.0f;
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
#pragma unroll
    for (int e = 1; e < kPack; ++e) v[r][e] += v[r][e - 1];
    float const inclusive = warp_inclusive(v[r][kPack - 1], lane);
    float exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
    if (lane == 0) exclusive = 0.0f;
    float const add = running + exclusive;
#pragma unroll
    for (int e = 0; e < kPack; ++e) v[r][e] += add;
    running += __shfl_sync(0xffffffffu, inclusive, 31);
  }
  if (lane == 0) warp_offsets[warp] = running;  // the warp's total for now
  __syncthreads();

  if (warp == 0) {
    float const total = lane < kWarps ? warp_offsets[lane] : 0.0f;
    float const inclusive = warp_inclusive(total, lane);
    float const aggregate = __shfl_sync(0xffffffffu, inclusive, 31);
    float const exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
    if (lane < kWarps) warp_offsets[lane] = lane == 0 ? 0.0f : exclusive;  // own slot: no other reader yet
    float prefix = 0.0f;
    if (tile == 0) {
      if (lane == 0) store_status(0, make_status(epoch, kFlagInclusive, aggregate));
    } else {
      if (lane == 0) store_status(tile, make_status(epoch, kFlagAggregate, aggregate));
      prefix = look_back(tile, epoch, lane);
      if (lane == 0) store_status(tile, make_status(epoch, kFlagInclusive, prefix + aggregate));
    }
    if (lane == 0) tile_offset = prefix;
  }
  __syncthreads();

  float const add = tile_offset + warp_offsets[warp];
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    long long const i = warp_begin + (static_cast<long long>(r) * 32 + lane) * kPack;
    if (vector_ok && i + kPack <= n) {
      Pack<T, kPack> p;
#pragma unroll
      for (int e = 0; e < kPack; ++e) p.v[e] = kopt_strategy::from_float<T>(v[r][e] + add);
      kopt_strategy::store_pack<T, kPack>(out + i, p);
    } else {
#pragma unroll
      for (int e = 0; e < kPack; ++e) {
        if (i + e < n) out[i + e] = kopt_strategy::from_float<T>(v[r][e] + add);
      }
    }
  }
}
