// Strategy lookback_scan_vectorized, scan family (kernel mode): inclusive prefix sum in ONE pass,
// the tile staged in shared memory by asynchronous 128-bit copies.
// Each block scans one tile of BLOCK * ITEMS elements; tiles are handed out in launch order through a
// __device__ ticket counter, so every tile a block waits for belongs to a block that already runs.
//   1. Load: warp w owns the tile's 32 * ITEMS consecutive elements from w * 32 * ITEMS on. Its lanes
//      copy them into the warp's part of shared memory with cp.async (16 bytes each, lane-contiguous, so
//      every warp access is 512 contiguous bytes); the copies need no registers, so a block has its whole
//      tile in flight at once. Misaligned buffers and partial packs are copied element-wise (zeros past n).
//   2. Block scan: every thread sums its ITEMS consecutive elements, read with 128-bit shared loads (a
//      XOR swizzle of the 16-byte slots keeps both the lane-contiguous and the per-thread pattern free of
//      bank conflicts); the thread totals are scanned with warp shuffles and the warp totals by warp 0.
//      Elements stay in shared memory, not registers, so a block needs few registers at any ITEMS.
//   3. Look-back: warp 0 publishes the tile's aggregate, then reads the status words of the 32 preceding
//      tiles at once, waits only until every tile up to the nearest one with an inclusive prefix has
//      published (optionally sleeping BACKOFF ns between polls), warp-reduces those values (or moves 32
//      tiles back) and publishes the tile's inclusive prefix. A status word is one 64-bit value (30-bit
//      epoch, 2-bit flag, FP32 value) stored and loaded with single volatile accesses, so a reader never
//      sees a torn value and no fence is needed. The epoch (the ticket counter's upper half, advanced by
//      the block that draws the last ticket) tells which launch wrote a word: nothing is ever cleared,
//      and back-to-back launches (graph replays included) start clean.
//   4. Store: each thread scans its elements serially from its slots (FP32 running sum plus the thread's
//      offset) and writes the results back in place; the warp stores its part with lane-contiguous
//      128-bit stores (element-wise where misaligned or past n).
// Sums are FP32 for FP32 and BF16 storage; each output is rounded once.
//
// Knobs: BLOCK threads per block; ITEMS elements per thread (a tile is BLOCK * ITEMS elements, staged in
// static shared memory, at most 32 KiB for FP32); BACKOFF nanoseconds of __nanosleep between look-back
// polls (0: spin).
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob ITEMS = [8, 16, 24, 32]
// kopt:knob BACKOFF = [0, 64, 256] resources=none
// kopt:constraint BLOCK * ITEMS <= 8192
// kopt:constraint ceil_div({{ARG2}}, BLOCK * ITEMS) <= 1048576
// kopt:launch grid=(max(1, ceil_div({{ARG2}}, BLOCK * ITEMS))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 24
#endif
#ifndef BACKOFF
#define BACKOFF 0
#endif

namespace lookback_scan_vectorized {

using T = {{T}};
constexpr int kPack = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kRows = ITEMS / kPack;                     // packs per thread
constexpr int kWarps = BLOCK / 32;
constexpr int kWarpPacks = 32 * kRows;  // packs per warp segment
constexpr long long kTile = static_cast<long long>(BLOCK) * ITEMS;
static_assert(ITEMS % 8 == 0, "ITEMS is a whole number of packs for FP32 (4) and BF16 (8)");
static_assert(kRows >= 1 && kRows <= 8, "the swizzle is worked out for 1 to 8 packs per thread");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");

// The shared slot of pack q of a warp segment. 128-bit shared accesses are served 8 lanes at a time,
// which must hit 8 different 16-byte slots modulo 128 bytes. Lane-contiguous accesses (q = 32 r + lane)
// do for any XOR of q's low 3 bits by a function of q >> 3; per-thread accesses (q = lane * kRows + k) do
// with no swizzle for odd kRows, with q >> 3 for kRows = 2, 4, 8, and with g + 6 (g >> 1) for 6
// (checked exhaustively on the host).
__device__ __forceinline__ int slot(int q) {
  int const g = q >> 3;
  int h = g;
  if (kRows % 2 == 1) h = 0;
  if (kRows == 6) h = g + (g >> 1) * 6;
  return q ^ (h & 7);
}

__device__ __forceinline__ void copy_async_16(void* shared, void const* global) {
  unsigned const address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(address), "l"(global) : "memory");
}
__device__ __forceinline__ void wait_async_copies() { asm volatile("cp.async.wait_all;\n" ::: "memory"); }

// kopt:include warp_inclusive.cuh
// kopt:include tile_status.cuh

// Waits only until every tile up to the nearest one with an inclusive prefix has published (all 32 if
// none has), sleeping BACKOFF ns between polls.
__device__ __forceinline__ unsigned read_window(long long index, unsigned epoch, unsigned long long& word) {
  while (true) {
    word = window_status(index, epoch);
    unsigned const flag = status_flag(word, epoch);
    unsigned const ready = __ballot_sync(0xffffffffu, flag != 0u);
    unsigned const inclusive = __ballot_sync(0xffffffffu, flag == kFlagInclusive);
    // Lanes that must have published: up to the nearest inclusive prefix, else all 32.
    unsigned const needed = inclusive != 0u ? ((inclusive & (0u - inclusive)) << 1) - 1u : 0xffffffffu;
    if ((ready & needed) == needed) return inclusive;
    if (BACKOFF > 0) __nanosleep(BACKOFF);
  }
}

}  // namespace lookback_scan_vectorized

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int n) {
  using namespace lookback_scan_vectorized;
  using Vec = kopt_strategy::Pack<T, kPack>;
  __shared__ uint4 staged[BLOCK * kRows];  // one 16-byte slot per pack of the tile
  __shared__ float warp_sums[kWarps];      // warp totals, then exclusive warp offsets
  __shared__ float tile_prefix;
  __shared__ unsigned long long ticket_shared;
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;

  TileTicket const ticket = draw_tile(ticket_shared);
  long long const tile = ticket.tile;

  Vec* const segment = reinterpret_cast<Vec*>(staged) + warp * kWarpPacks;
  long long const warp_begin = tile * kTile + static_cast<long long>(warp) * 32 * ITEMS;

  // 1. Load the warp's segment: pack q holds elements warp_begin + q * kPack ... + kPack - 1.
  bool const in_vector = kopt_strategy::aligned_to(in, 16u);
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    int const q = r * 32 + lane;
    long long const i = warp_begin + static_cast<long long>(q) * kPack;
    Vec* const dst = segment + slot(q);
    if (in_vector && i + kPack <= n) {
      copy_async_16(dst, in + i);
    } else {
#pragma unroll
      for (int e = 0; e < kPack; ++e) dst->v[e] = i + e < n ? in[i + e] : kopt_strategy::from_float<T>(0.0f);
    }
  }
  wait_async_copies();
  __syncwarp();

  // 2. Each thread's ITEMS consecutive elements are packs lane * kRows ... + kRows - 1 of the segment;
  // their total, summed in the order step 4 scans them (so the two agree bit for bit). Nothing is held
  // in registers across the look-back, so the tile size does not limit the blocks per SM.
  float thread_total = 0.0f;
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    Vec const p = segment[slot(lane * kRows + k)];
#pragma unroll
    for (int e = 0; e < kPack; ++e) thread_total += kopt_strategy::to_float(p.v[e]);
  }
  float const thread_inclusive = warp_inclusive(thread_total, lane);
  float thread_exclusive = __shfl_up_sync(0xffffffffu, thread_inclusive, 1);
  if (lane == 0) thread_exclusive = 0.0f;
  float const warp_total = __shfl_sync(0xffffffffu, thread_inclusive, 31);
  if (lane == 0) warp_sums[warp] = warp_total;
  __syncthreads();

  // 3. Warp 0: warp offsets, the tile's aggregate, look-back, the tile's inclusive prefix.
  if (warp == 0) {
    float const prefix = scan_warp_totals_and_look_back(warp_sums, ticket, lane);
    if (lane == 0) tile_prefix = prefix;
  }
  __syncthreads();

  // 4. The thread's serial scan from its slots, each result (local running sum + offset) rounded once and
  // written back in place; then lane-contiguous stores of the warp's segment.
  float const add = (tile_prefix + warp_sums[warp]) + thread_exclusive;
  float local = 0.0f;
#pragma unroll
  for (int k = 0; k < kRows; ++k) {
    Vec* const own = segment + slot(lane * kRows + k);
    Vec const p = *own;
    Vec result;
#pragma unroll
    for (int e = 0; e < kPack; ++e) {
      local += kopt_strategy::to_float(p.v[e]);
      result.v[e] = kopt_strategy::from_float<T>(local + add);
    }
    *own = result;
  }
  __syncwarp();
  bool const out_vector = kopt_strategy::aligned_to(out, 16u);
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    int const q = r * 32 + lane;
    long long const i = warp_begin + static_cast<long long>(q) * kPack;
    Vec const& src = segment[slot(q)];
    if (out_vector && i + kPack <= n) {
      kopt_strategy::store_pack<T, kPack>(out + i, src);
    } else {
#pragma unroll
      for (int e = 0; e < kPack; ++e) {
        if (i + e < n) out[i + e] = src.v[e];
      }
    }
  }
}
