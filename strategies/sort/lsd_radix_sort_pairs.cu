// Strategy lsd_radix_sort_pairs, sort_pairs family (launcher mode): stable LSD radix sort of (key, value)
// pairs, FP32 or BF16 keys with int32 values (cub::DeviceRadixSort::SortPairs, thrust::stable_sort_by_key):
// keys_out = keys_in in ascending order, values_out = values_in permuted the same way, equal keys in input
// order. Keys are sorted as their order-preserving unsigned image (sign set: flip every bit; sign clear:
// flip the sign bit), 32 bits for FP32 and 16 for BF16, RADIX_BITS bits per pass from the least significant
// digit up; digits are taken from the image with -0 read as +0, so -0 and +0 are equal keys and keep their
// input order (as CUB), while the keys themselves keep their bits. NaNs (not in the family's inputs) would
// go after +inf (sign clear) or before -inf (sign set). The first pass converts while it loads from keys_in
// and reads values_in; the last converts back while it stores into keys_out and values_out.
// The pairs are cut into tiles of THREADS * ITEMS and the tiles into at most (SMs x resident blocks) chunks
// of consecutive tiles, one block per chunk. Each pass is three kernels:
//   1. upsweep: every block counts the digits of its chunk's keys in a shared histogram (lanes with the
//      same digit are found with RADIX_BITS ballots and add once, so skewed digits do not serialise
//      atomics) and writes counts[digit][chunk]. Order does not matter here, so keys are read as 128-bit
//      packs (kUpsweepPacks in flight per thread) when the key array is 16-byte aligned, the chunk's tail
//      and a misaligned array element by element;
//   2. row scan: one block per digit turns its row into exclusive offsets over chunks and writes the
//      digit's total;
//   3. downsweep: every block scans the digit totals (its digits' global starts), then walks its chunk
//      tile by tile. Warp w of a tile owns 32 * ITEMS consecutive pairs, item i of lane l at index
//      i * 32 + l (every load instruction of a warp reads 32 consecutive keys, then 32 consecutive values:
//      coalesced), so ranking items in order i = 0, 1, ... with ballot matching and a per-warp shared
//      histogram gives each pair its stable rank among the warp's pairs of its digit; per-digit warp
//      offsets and the tile's digit starts make that a stable rank in the tile. Keys and values are placed
//      at their rank in shared memory (sorted by digit within the tile) and written back in that order, so
//      each digit's run of the tile goes to consecutive global addresses (coalesced writes).
// Stable within warps, tiles and chunks (chunks and tiles are in index order), as LSD radix sort needs.
// Scratch: one buffer of n keys and one of n values (ping-pong with the outputs, so the last pass lands in
// keys_out and values_out) and the counts, allocated once with cudaMalloc and grown only when a larger n
// arrives. Default stream only. Positions are below n < 2^31; tile and chunk starts are 64-bit.
//
// Knobs: RADIX_BITS digit width (FP32: 32 / RADIX_BITS passes rounded up; BF16: 16 / RADIX_BITS);
// THREADS per block; ITEMS pairs per thread and tile. Static shared memory stays below 48 KiB for 4-byte
// keys and values: max(tile keys and values, per-warp histograms) plus four digit arrays. The defaults
// (8, 512, 8) were the fastest of seven configurations on the H200 at 32 Mi pairs (FP32 and BF16); more
// than about 12 items per thread costs occupancy (over 100 registers).
// kopt:knob RADIX_BITS = range(4, 8)
// kopt:knob THREADS = [128, 256, 512]
// kopt:knob ITEMS = [4, 8, 12, 16, 20]
// kopt:constraint THREADS * ITEMS * 8 + 16 * pow(2, RADIX_BITS) <= 45056
// kopt:constraint THREADS / 32 * pow(2, RADIX_BITS) * 4 + 16 * pow(2, RADIX_BITS) <= 45056

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#ifndef RADIX_BITS
#define RADIX_BITS 8
#endif
#ifndef THREADS
#define THREADS 512
#endif
#ifndef ITEMS
#define ITEMS 8
#endif

namespace lsd_radix_sort_pairs {

using T = {{T}};
using Key = std::conditional<sizeof(T) == 4, unsigned, unsigned short>::type;  // the key's bits
using Value = int;
static_assert(sizeof(Key) == sizeof(T), "keys are FP32 or BF16");
static_assert(THREADS % 32 == 0 && THREADS <= 1024, "whole warps");
static_assert(RADIX_BITS >= 1 && RADIX_BITS <= 8, "digits of 1 to 8 bits");

constexpr int kKeyBits = 8 * static_cast<int>(sizeof(Key));
constexpr int kRadix = 1 << RADIX_BITS;
constexpr unsigned kDigitMask = static_cast<unsigned>(kRadix) - 1u;
constexpr int kPasses = (kKeyBits + RADIX_BITS - 1) / RADIX_BITS;
constexpr int kWarps = THREADS / 32;
constexpr int kTile = THREADS * ITEMS;
constexpr int kWarpTile = 32 * ITEMS;
constexpr int kPerLane = (kRadix + 31) / 32;  // digits per lane in a one-warp scan over the digits
constexpr int kRowThreads = 256;
constexpr int kRowItems = 4;
constexpr int kPackKeys = 16 / static_cast<int>(sizeof(Key));  // keys per 128-bit load
constexpr int kUpsweepPacks = 4;                               // 128-bit loads in flight per thread
constexpr unsigned kSign = 1u << (kKeyBits - 1);
constexpr unsigned kAllBits = kKeyBits == 32 ? 0xffffffffu : 0xffffu;
constexpr unsigned kImageMinusZero = kAllBits >> 1;  // to_image(-0): 0x7fffffff, 0x7fff
constexpr unsigned kImagePlusZero = kSign;           // to_image(+0): 0x80000000, 0x8000
static_assert(kTile % kPackKeys == 0, "chunks start on 16-byte boundaries of an aligned key array");

// Order-preserving image of the key's bits and its inverse: negative keys (sign set) flip every bit,
// the others only the sign bit.
__device__ __forceinline__ Key to_image(Key bits) {
  unsigned const u = bits;
  return static_cast<Key>(u ^ ((u & kSign) != 0u ? kAllBits : kSign));
}
__device__ __forceinline__ Key from_image(Key key) {
  unsigned const u = key;
  return static_cast<Key>(u ^ ((u & kSign) != 0u ? kSign : kAllBits));
}
// The digit of an image at `shift`, -0 read as +0 (its neighbour): equal keys, stable order.
__device__ __forceinline__ unsigned digit_of(Key key, int shift) {
  unsigned const u = key;
  return ((u == kImageMinusZero ? kImagePlusZero : u) >> shift) & kDigitMask;
}

// The lanes among `valid_lanes` whose digit equals this lane's (the whole warp must call it).
__device__ __forceinline__ unsigned match_digit(unsigned digit, unsigned valid_lanes) {
  unsigned peers = valid_lanes;
#pragma unroll
  for (int b = 0; b < RADIX_BITS; ++b) {
    bool const bit = ((digit >> b) & 1u) != 0u;
    unsigned const vote = __ballot_sync(0xffffffffu, bit);
    peers &= bit ? vote : ~vote;
  }
  return peers;
}

__device__ __forceinline__ unsigned warp_inclusive(unsigned v, int lane) {
#pragma unroll
  for (int offset = 1; offset < 32; offset <<= 1) {
    unsigned const other = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v += other;
  }
  return v;
}

// One whole warp: out[d] = in[0] + ... + in[d - 1] for every digit d (out may be in). Each lane owns
// kPerLane consecutive digits.
__device__ __forceinline__ void digits_exclusive_scan(unsigned const* in, unsigned* out, int lane) {
  unsigned v[kPerLane];
  unsigned sum = 0u;
#pragma unroll
  for (int k = 0; k < kPerLane; ++k) {
    int const d = lane * kPerLane + k;
    v[k] = d < kRadix ? in[d] : 0u;
    sum += v[k];
  }
  unsigned running = warp_inclusive(sum, lane) - sum;
#pragma unroll
  for (int k = 0; k < kPerLane; ++k) {
    int const d = lane * kPerLane + k;
    if (d < kRadix) out[d] = running;
    running += v[k];
  }
}

// A chunk is [blockIdx.x * tiles_per_chunk * kTile, that + tiles_per_chunk * kTile) cut at n.
__device__ __forceinline__ void chunk_range(int n, int tiles_per_chunk, long long* begin, long long* end) {
  *begin = static_cast<long long>(blockIdx.x) * tiles_per_chunk * kTile;
  long long const chunk_end = *begin + static_cast<long long>(tiles_per_chunk) * kTile;
  *end = chunk_end < n ? chunk_end : static_cast<long long>(n);
}

// Adds one key per lane to the histogram (the whole warp must call it; `valid` says which lanes have one).
__device__ __forceinline__ void count_key(unsigned* histogram, Key bits, bool valid, int shift, bool first,
                                          int lane) {
  unsigned const digit = digit_of(first ? to_image(bits) : bits, shift);
  unsigned const peers = match_digit(digit, __ballot_sync(0xffffffffu, valid));
  if (valid && __ffs(static_cast<int>(peers)) - 1 == lane)
    atomicAdd(&histogram[digit], static_cast<unsigned>(__popc(peers)));
}

// Pass step 1: counts[d * chunks + chunk] = how many keys of the chunk have digit d.
__global__ void __launch_bounds__(THREADS)
    upsweep_kernel(Key const* __restrict__ src, int n, int shift, bool first, unsigned* __restrict__ counts,
                   int chunks, int tiles_per_chunk) {
  __shared__ unsigned histogram[kRadix];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  for (int d = static_cast<int>(threadIdx.x); d < kRadix; d += THREADS) histogram[d] = 0u;
  __syncthreads();
  long long begin = 0;
  long long end = 0;
  chunk_range(n, tiles_per_chunk, &begin, &end);
  long long element_from = begin;
  if (reinterpret_cast<std::uintptr_t>(src) % 16u == 0u) {
    // begin is a multiple of kTile, hence of kPackKeys: src + begin is 16-byte aligned.
    uint4 const* const packs = reinterpret_cast<uint4 const*>(src + begin);
    long long const pack_count = (end - begin) / kPackKeys;
    for (long long base = 0; base < pack_count; base += static_cast<long long>(THREADS) * kUpsweepPacks) {
      uint4 pack[kUpsweepPacks];
#pragma unroll
      for (int u = 0; u < kUpsweepPacks; ++u) {
        long long const p = base + static_cast<long long>(u) * THREADS + threadIdx.x;
        pack[u] = p < pack_count ? packs[p] : make_uint4(0u, 0u, 0u, 0u);
      }
#pragma unroll
      for (int u = 0; u < kUpsweepPacks; ++u) {
        bool const valid = base + static_cast<long long>(u) * THREADS + threadIdx.x < pack_count;
        unsigned const words[4] = {pack[u].x, pack[u].y, pack[u].z, pack[u].w};
#pragma unroll
        for (int c = 0; c < kPackKeys; ++c) {
          int const byte = c * static_cast<int>(sizeof(Key));
          count_key(histogram, static_cast<Key>(words[byte / 4] >> (8 * (byte % 4))), valid, shift, first,
                    lane);
        }
      }
    }
    element_from = begin + pack_count * kPackKeys;
  }
  // The rest (fewer than kPackKeys keys of the last chunk, or the whole chunk of a misaligned array).
  for (long long base = element_from; base < end; base += static_cast<long long>(THREADS) * 4) {
    Key keys[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      long long const i = base + static_cast<long long>(u) * THREADS + threadIdx.x;
      keys[u] = i < end ? src[i] : Key(0);
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      bool const valid = base + static_cast<long long>(u) * THREADS + threadIdx.x < end;
      count_key(histogram, keys[u], valid, shift, first, lane);
    }
  }
  __syncthreads();
  for (int d = static_cast<int>(threadIdx.x); d < kRadix; d += THREADS)
    counts[static_cast<long long>(d) * chunks + blockIdx.x] = histogram[d];
}

// Pass step 2: block d turns counts[d][0..chunks) into exclusive offsets and writes totals[d].
__global__ void __launch_bounds__(kRowThreads)
    row_scan_kernel(unsigned* __restrict__ counts, unsigned* __restrict__ totals, int chunks) {
  __shared__ unsigned warp_offsets[kRowThreads / 32];
  __shared__ unsigned block_total;
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  unsigned* const row = counts + static_cast<long long>(blockIdx.x) * chunks;
  unsigned carry = 0u;
  for (int base = 0; base < chunks; base += kRowThreads * kRowItems) {
    int const first = base + static_cast<int>(threadIdx.x) * kRowItems;
    unsigned v[kRowItems];
    unsigned sum = 0u;
#pragma unroll
    for (int k = 0; k < kRowItems; ++k) {
      v[k] = first + k < chunks ? row[first + k] : 0u;
      sum += v[k];
    }
    unsigned const inclusive = warp_inclusive(sum, lane);
    if (lane == 31) warp_offsets[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
      unsigned const total = lane < kRowThreads / 32 ? warp_offsets[lane] : 0u;
      unsigned const scanned = warp_inclusive(total, lane);
      if (lane < kRowThreads / 32) warp_offsets[lane] = scanned - total;
      if (lane == 31) block_total = scanned;
    }
    __syncthreads();
    unsigned running = carry + warp_offsets[warp] + (inclusive - sum);
#pragma unroll
    for (int k = 0; k < kRowItems; ++k) {
      if (first + k < chunks) row[first + k] = running;
      running += v[k];
    }
    carry += block_total;
    __syncthreads();  // warp_offsets and block_total are rewritten by the next round
  }
  if (threadIdx.x == 0) totals[blockIdx.x] = carry;
}

struct SortedTile {
  Key keys[kTile];  // the tile's pairs in (stable) digit order
  Value values[kTile];
};

struct TileStorage {
  union {
    unsigned warp_histograms[kWarps * kRadix];  // ranking: per-warp digit counts, then warp offsets
    SortedTile sorted;                          // writing
  };
};

// Pass step 3: stable scatter of every chunk's pairs, tile by tile, to their place in dst.
__global__ void __launch_bounds__(THREADS)
    downsweep_kernel(Key const* __restrict__ src_keys, Value const* __restrict__ src_values,
                     Key* __restrict__ dst_keys, Value* __restrict__ dst_values, int n, int shift, bool first,
                     bool last, unsigned const* __restrict__ counts, unsigned const* __restrict__ totals,
                     int chunks, int tiles_per_chunk) {
  __shared__ TileStorage storage;
  __shared__ unsigned digit_start[kRadix];  // first rank of each digit in the tile
  __shared__ unsigned tile_count[kRadix];   // pairs of each digit in the tile
  __shared__ unsigned chunk_next[kRadix];   // global position of the chunk's next pair of each digit
  __shared__ unsigned write_base[kRadix];   // global position of sorted[0] for each digit (mod 2^32)
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  unsigned const lanes_below = (1u << lane) - 1u;
  unsigned* const warp_histogram = storage.warp_histograms + warp * kRadix;

  if (warp == 0) digits_exclusive_scan(totals, chunk_next, lane);  // global start of each digit
  __syncthreads();
  for (int d = static_cast<int>(threadIdx.x); d < kRadix; d += THREADS)
    chunk_next[d] += counts[static_cast<long long>(d) * chunks + blockIdx.x];
  // (chunk_next[d] is only touched again by the thread that owns digit d here.)

  long long begin = 0;
  long long end = 0;
  chunk_range(n, tiles_per_chunk, &begin, &end);
  for (long long tile_begin = begin; tile_begin < end; tile_begin += kTile) {
    for (int k = static_cast<int>(threadIdx.x); k < kWarps * kRadix; k += THREADS)
      storage.warp_histograms[k] = 0u;
    // Warp-striped: item i of this lane is pair first + i * 32; it exists when i * 32 < limit.
    long long const first_index = tile_begin + static_cast<long long>(warp) * kWarpTile + lane;
    long long const left = end - first_index;  // > -kTile
    int const limit = static_cast<int>(left < kWarpTile ? left : kWarpTile);
    Key keys[ITEMS];
    Value values[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      Key const raw = i * 32 < limit ? src_keys[first_index + i * 32] : Key(0);
      keys[i] = first ? to_image(raw) : raw;
    }
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) values[i] = i * 32 < limit ? src_values[first_index + i * 32] : 0;
    __syncthreads();

    // Rank every pair among the warp's pairs of its digit, items in index order.
    unsigned rank[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      bool const valid = i * 32 < limit;
      unsigned const digit = digit_of(keys[i], shift);
      unsigned const peers = match_digit(digit, __ballot_sync(0xffffffffu, valid));
      unsigned const before = valid ? warp_histogram[digit] : 0u;
      rank[i] = before + static_cast<unsigned>(__popc(peers & lanes_below));
      __syncwarp();
      if (valid && __ffs(static_cast<int>(peers)) - 1 == lane)
        warp_histogram[digit] = before + static_cast<unsigned>(__popc(peers));
      __syncwarp();
    }
    __syncthreads();

    // Per digit: exclusive offsets over the warps and the tile's count.
    for (int d = static_cast<int>(threadIdx.x); d < kRadix; d += THREADS) {
      unsigned running = 0u;
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        unsigned const c = storage.warp_histograms[w * kRadix + d];
        storage.warp_histograms[w * kRadix + d] = running;
        running += c;
      }
      tile_count[d] = running;
    }
    __syncthreads();
    if (warp == 0) digits_exclusive_scan(tile_count, digit_start, lane);
    __syncthreads();
    for (int d = static_cast<int>(threadIdx.x); d < kRadix; d += THREADS) {
      write_base[d] = chunk_next[d] - digit_start[d];
      chunk_next[d] += tile_count[d];
    }
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      unsigned const digit = digit_of(keys[i], shift);
      rank[i] += digit_start[digit] + warp_histogram[digit];
    }
    __syncthreads();  // every warp offset is read before the pairs overwrite the histograms

#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      if (i * 32 < limit) {
        storage.sorted.keys[rank[i]] = keys[i];
        storage.sorted.values[rank[i]] = values[i];
      }
    }
    __syncthreads();
    int const count = static_cast<int>(end - tile_begin < kTile ? end - tile_begin : kTile);
    for (int j = static_cast<int>(threadIdx.x); j < count; j += THREADS) {
      Key const key = storage.sorted.keys[j];
      unsigned const position = write_base[digit_of(key, shift)] + static_cast<unsigned>(j);
      dst_keys[position] = last ? from_image(key) : key;
      dst_values[position] = storage.sorted.values[j];
    }
    __syncthreads();  // sorted, write_base and chunk_next are reused by the next tile
  }
}

// kopt:include ../common/multiprocessors.cuh

// Scratch, allocated on first use and grown (never per call): the ping-pong pair buffers and the counts.
struct Scratch {
  Key* keys = nullptr;
  Value* values = nullptr;
  long long capacity = 0;      // pairs
  unsigned* counts = nullptr;  // [kRadix][max_chunks]
  unsigned* totals = nullptr;  // [kRadix]
  int max_chunks = 0;
};

bool prepare(Scratch& s, int n) {
  if (s.max_chunks == 0) {
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, downsweep_kernel, THREADS, 0) != cudaSuccess ||
        per_sm < 1)
      per_sm = 1;
    int const max_chunks = multiprocessors() * per_sm;
    if (cudaMalloc(&s.counts, sizeof(unsigned) * static_cast<size_t>(kRadix) * max_chunks) != cudaSuccess) {
      s.counts = nullptr;
      return false;
    }
    if (cudaMalloc(&s.totals, sizeof(unsigned) * kRadix) != cudaSuccess) {
      cudaFree(s.counts);
      s.counts = nullptr;
      s.totals = nullptr;
      return false;
    }
    s.max_chunks = max_chunks;
  }
  if (s.capacity < n) {
    if (s.keys != nullptr) cudaFree(s.keys);
    if (s.values != nullptr) cudaFree(s.values);
    s.keys = nullptr;
    s.values = nullptr;
    s.capacity = 0;
    if (cudaMalloc(&s.keys, sizeof(Key) * static_cast<size_t>(n)) != cudaSuccess) {
      s.keys = nullptr;
      return false;
    }
    if (cudaMalloc(&s.values, sizeof(Value) * static_cast<size_t>(n)) != cudaSuccess) {
      cudaFree(s.keys);
      s.keys = nullptr;
      s.values = nullptr;
      return false;
    }
    s.capacity = n;
  }
  return true;
}

}  // namespace lsd_radix_sort_pairs

// The signature is longer than a line, and clang-format would split the placeholders.
// clang-format off
extern "C" void {{ENTRY}}({{T}}* keys_out, int* values_out, const {{T}}* keys_in, const int* values_in,
                          int n) {
  // clang-format on
  using namespace lsd_radix_sort_pairs;
  if (n <= 0) return;
  static Scratch scratch;
  if (!prepare(scratch, n)) return;
  long long const tiles = (static_cast<long long>(n) + kTile - 1) / kTile;
  long long chunks = tiles < scratch.max_chunks ? tiles : scratch.max_chunks;
  long long const tiles_per_chunk = (tiles + chunks - 1) / chunks;
  chunks = (tiles + tiles_per_chunk - 1) / tiles_per_chunk;  // every chunk non-empty
  Key const* src_keys = reinterpret_cast<Key const*>(keys_in);
  Value const* src_values = values_in;
  Key* const out_keys = reinterpret_cast<Key*>(keys_out);
  for (int pass = 0; pass < kPasses; ++pass) {
    // The passes alternate between the outputs and the scratch buffers so that the last one writes the
    // outputs; no pass reads and writes the same buffer.
    bool const to_out = (kPasses - 1 - pass) % 2 == 0;
    Key* const dst_keys = to_out ? out_keys : scratch.keys;
    Value* const dst_values = to_out ? values_out : scratch.values;
    int const shift = pass * RADIX_BITS;
    bool const first = pass == 0;
    bool const last = pass == kPasses - 1;
    upsweep_kernel<<<static_cast<unsigned>(chunks), THREADS, 0, kopt_strategy::launch_stream()>>>(src_keys, n, shift, first, scratch.counts,
                                                               static_cast<int>(chunks),
                                                               static_cast<int>(tiles_per_chunk));
    row_scan_kernel<<<kRadix, kRowThreads, 0, kopt_strategy::launch_stream()>>>(scratch.counts, scratch.totals, static_cast<int>(chunks));
    downsweep_kernel<<<static_cast<unsigned>(chunks), THREADS, 0, kopt_strategy::launch_stream()>>>(
        src_keys, src_values, dst_keys, dst_values, n, shift, first, last, scratch.counts, scratch.totals,
        static_cast<int>(chunks), static_cast<int>(tiles_per_chunk));
    src_keys = dst_keys;
    src_values = dst_values;
  }
}
