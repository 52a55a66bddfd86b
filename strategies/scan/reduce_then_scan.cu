// Strategy reduce_then_scan, scan family (launcher mode): inclusive prefix sum in three kernels.
// The input is cut into at most BLOCKS_PER_SM blocks per SM, each owning a contiguous chunk of whole
// tiles of BLOCK * ITEMS elements.
//   1. reduce: each block sums its chunk with 128-bit loads and warp shuffles into a static array;
//   2. one block of 1024 threads turns the chunk sums into exclusive chunk offsets;
//   3. scan: each block walks its chunk tile by tile from its offset. Warp w of a tile owns 32 * ITEMS
//      consecutive elements, read and written as rows of 32 128-bit packs (contiguous per warp); rows are
//      scanned with warp shuffles, warp totals by warp 0, and the tile's total carries into the next tile.
// It reads the input twice (the second read partly from L2) but needs no inter-block waiting, so it is
// robust; sums are FP32 for FP32 and BF16 storage, each output rounded once. Misaligned buffers and
// partial packs use element-wise accesses, so any alignment and any n work.
//
// Knobs: BLOCK threads per block; ITEMS elements per thread and tile; BLOCKS_PER_SM how many chunks (blocks)
// per SM, which sets the chunk length.
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob ITEMS = [8, 16, 32]
// kopt:knob BLOCKS_PER_SM = [1, 2, 4] resources=none
// kopt:constraint BLOCK * BLOCKS_PER_SM <= 2048
// kopt:constraint (ITEMS + 32) * BLOCK <= 65536

#include <cuda_runtime.h>

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 16
#endif
#ifndef BLOCKS_PER_SM
#define BLOCKS_PER_SM 2
#endif

namespace reduce_then_scan {

using T = {{T}};
constexpr int kPack = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kRows = ITEMS / kPack;                     // packs per thread and tile
constexpr int kWarps = BLOCK / 32;
constexpr int kTile = BLOCK * ITEMS;
constexpr int kMaxChunks = 4096;
constexpr int kOffsetThreads = 1024;
constexpr int kOffsetItems = kMaxChunks / kOffsetThreads;
static_assert(ITEMS % 8 == 0, "ITEMS is a whole number of packs for FP32 (4) and BF16 (8)");

__device__ float chunk_values[kMaxChunks];  // chunk sums after pass 1, exclusive offsets after pass 2

// kopt:include warp_inclusive.cuh
// kopt:include tile_rows.cuh

__global__ void __launch_bounds__(BLOCK) chunk_sum_kernel(const T* __restrict__ in, int n, long long chunk) {
  __shared__ float warp_sums[kWarps];
  long long const begin = static_cast<long long>(blockIdx.x) * chunk;
  long long const end = begin + chunk < n ? begin + chunk : n;
  float acc = 0.0f;
  // begin is a multiple of kTile, so the chunk is 16-byte aligned whenever `in` is.
  if (kopt_strategy::aligned_to(in, 16u)) {
    long long const packs = (end - begin) / kPack;
    for (long long p = threadIdx.x; p < packs; p += BLOCK) {
      kopt_strategy::Pack<T, kPack> const v = kopt_strategy::load_pack<T, kPack>(in + begin + p * kPack);
#pragma unroll
      for (int e = 0; e < kPack; ++e) acc += kopt_strategy::to_float(v.v[e]);
    }
    for (long long i = begin + packs * kPack + threadIdx.x; i < end; i += BLOCK)
      acc += kopt_strategy::to_float(in[i]);
  } else {
    for (long long i = begin + threadIdx.x; i < end; i += BLOCK) acc += kopt_strategy::to_float(in[i]);
  }
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  acc = kopt_strategy::warp_sum(acc);
  if (lane == 0) warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = kopt_strategy::warp_sum(lane < kWarps ? warp_sums[lane] : 0.0f);
    if (lane == 0) chunk_values[blockIdx.x] = acc;
  }
}

// One block: chunk_values[0..count) become exclusive prefix sums.
__global__ void __launch_bounds__(kOffsetThreads) chunk_offset_kernel(int count) {
  __shared__ float warp_totals[kOffsetThreads / 32];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  int const first = static_cast<int>(threadIdx.x) * kOffsetItems;  // consecutive values per thread
  float values[kOffsetItems];
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < kOffsetItems; ++k) {
    values[k] = first + k < count ? chunk_values[first + k] : 0.0f;
    sum += values[k];
  }
  float const inclusive = warp_inclusive(sum, lane);
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    float const warp_inclusive_total = warp_inclusive(warp_totals[lane], lane);
    float const exclusive = __shfl_up_sync(0xffffffffu, warp_inclusive_total, 1);
    warp_totals[lane] = lane == 0 ? 0.0f : exclusive;
  }
  __syncthreads();
  float thread_exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
  if (lane == 0) thread_exclusive = 0.0f;
  float running = warp_totals[warp] + thread_exclusive;
#pragma unroll
  for (int k = 0; k < kOffsetItems; ++k) {
    if (first + k < count) chunk_values[first + k] = running;
    running += values[k];
  }
}

__global__ void __launch_bounds__(BLOCK)
    chunk_scan_kernel(T* __restrict__ out, const T* __restrict__ in, int n, long long chunk) {
  __shared__ float warp_offsets[kWarps];
  __shared__ float tile_total;
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  bool const vector_ok = kopt_strategy::aligned_to(in, 16u) && kopt_strategy::aligned_to(out, 16u);
  long long const begin = static_cast<long long>(blockIdx.x) * chunk;
  long long const end = begin + chunk < n ? begin + chunk : n;
  float carry = chunk_values[blockIdx.x];
  for (long long tile_begin = begin; tile_begin < end; tile_begin += kTile) {
    long long const warp_begin = tile_begin + static_cast<long long>(warp) * 32 * ITEMS;
    float v[kRows][kPack];
    load_rows(v, in, warp_begin, end, lane, vector_ok);
    float const running = scan_rows(v, lane);
    if (lane == 0) warp_offsets[warp] = running;
    __syncthreads();
    if (warp == 0) {
      float const total = lane < kWarps ? warp_offsets[lane] : 0.0f;
      float const inclusive = warp_inclusive(total, lane);
      float const exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
      if (lane < kWarps) warp_offsets[lane] = lane == 0 ? 0.0f : exclusive;
      if (lane == 31) tile_total = inclusive;
    }
    __syncthreads();
    float const add = carry + warp_offsets[warp];
    store_rows(out, v, add, warp_begin, end, lane, vector_ok);
    carry += tile_total;
    __syncthreads();  // warp_offsets and tile_total are rewritten by the next tile
  }
}

// kopt:include ../common/multiprocessors.cuh

}  // namespace reduce_then_scan

extern "C" void {{ENTRY}}({{T}}* out, const {{T}}* in, int n) {
  using namespace reduce_then_scan;
  if (n <= 0) return;
  long long const tiles = (static_cast<long long>(n) + kTile - 1) / kTile;
  long long blocks = static_cast<long long>(multiprocessors()) * BLOCKS_PER_SM;
  if (blocks > kMaxChunks) blocks = kMaxChunks;
  if (blocks > tiles) blocks = tiles;
  long long const tiles_per_chunk = (tiles + blocks - 1) / blocks;
  blocks = (tiles + tiles_per_chunk - 1) / tiles_per_chunk;
  long long const chunk = tiles_per_chunk * kTile;
  chunk_sum_kernel<<<static_cast<unsigned>(blocks), BLOCK, 0, kopt_strategy::launch_stream()>>>(in, n, chunk);
  chunk_offset_kernel<<<1, kOffsetThreads, 0, kopt_strategy::launch_stream()>>>(static_cast<int>(blocks));
  chunk_scan_kernel<<<static_cast<unsigned>(blocks), BLOCK, 0, kopt_strategy::launch_stream()>>>(out, in, n, chunk);
}
