// Strategies row_scan_warp_per_row (row_scan family), row_scan_reverse_warp_per_row (row_scan_reverse,
// KOPT_SCAN_REVERSE = 1), row_cumprod_warp_per_row (row_cumprod, KOPT_SCAN_PRODUCT = 1),
// row_scan_masked_warp_per_row (row_scan_masked, KOPT_SCAN_MASKED = 1) and row_scan_exclusive_warp_per_row
// (row_scan_exclusive, KOPT_SCAN_EXCLUSIVE = 1), kernel mode. row_scan: out[r*cols + c] =
// in[r*cols] + ... + in[r*cols + c] for every row r < rows and column c < cols of a row-major rows x cols
// matrix (an inclusive cumulative sum along the last axis, torch.cumsum(x, dim=-1)); row_scan_reverse: the
// sum from column c to the row's end (torch.cumsum(x.flip(-1), -1).flip(-1)); row_cumprod: the product of
// the row up to c (torch.cumprod(x, dim=-1)); row_scan_masked: the sum of in[r*cols + k] * mask[r*cols + k]
// for k <= c, mask one byte per element, nonzero = 1 (torch.cumsum(x * mask, dim=-1) with a bool mask);
// row_scan_exclusive: the sum of the row before column c, 0 at c = 0 (what torch.cumsum(x, -1) - x rounds). FP32
// running sums (products), each output rounded once to T. Each row belongs to a group of LANES threads of one
// warp, BLOCK / LANES rows per block, no shared memory and no barrier. The row is cut into packs of kV
// elements: a 128-bit pack (4 FP32 or 8 BF16) when cols is a multiple of that and both matrices are 16-byte
// aligned (every row then starts on a 16-byte boundary; the mask, when there is one, kV-byte aligned), else a
// single element (odd widths: still coalesced). The group walks its row in chunks of UNROLL slices of LANES
// consecutive packs, pack p of a slice going to lane p, so each load and store of a slice is contiguous
// across the group; the UNROLL loads of a chunk are all issued before the first is used. A lane scans its
// pack serially in registers, a shuffle scan of the lanes' pack totals (log2 LANES steps) gives each lane the
// sum of the slice before its pack, and a running carry (the sum of the row so far, the same in every lane
// of the group) joins the slices and the chunks. The reverse scan walks the row from its end: logical pack p
// is the row's pack packs - 1 - p, its elements taken last to first, so the same forward scan computes the
// suffix sums (loads and stores stay contiguous across the group, in descending order). Every element is
// read once and written once; the pack width depends only on cols and the buffers, so every group of a warp
// runs the same number of steps and the shuffles always have all 32 lanes.
//
// Knobs: LANES threads per row (a warp, or 4 to 16 lanes for short rows); BLOCK threads per block;
// UNROLL packs in flight per thread (slices per chunk); HINT the loads' cache policy (2: L2 evict-first +
// 256-byte fetches, 1: ld.global.cs, 0: ld.global.nc).
// kopt:knob LANES = [4, 8, 16, 32]
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob HINT = [0, 1, 2] resources=none
// kopt:launch grid=(max(1, ceil_div({{ARG2}}, BLOCK / LANES))) block=(BLOCK) kernel={{ENTRY}}

#ifndef LANES
#define LANES 32
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
#ifndef KOPT_SCAN_REVERSE
#define KOPT_SCAN_REVERSE 0
#endif
#ifndef KOPT_SCAN_PRODUCT
#define KOPT_SCAN_PRODUCT 0
#endif
#ifndef KOPT_SCAN_MASKED
#define KOPT_SCAN_MASKED 0
#endif
#ifndef KOPT_SCAN_EXCLUSIVE
#define KOPT_SCAN_EXCLUSIVE 0
#endif

namespace row_scan_warp_per_row {

using T = {{T}};

// kopt:include ../reduction/hinted_loads.cuh

static_assert(LANES >= 2 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "a power-of-two part of a warp");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");
static_assert(KOPT_SCAN_PRODUCT + KOPT_SCAN_REVERSE + KOPT_SCAN_MASKED + KOPT_SCAN_EXCLUSIVE <= 1,
              "one variant of the scan");

// The scan's operation and its identity (what a lane past the row's end holds).
__device__ __forceinline__ float combine(float a, float b) {
#if KOPT_SCAN_PRODUCT
  return a * b;
#else
  return a + b;
#endif
}
constexpr float kIdentity = KOPT_SCAN_PRODUCT ? 1.0f : 0.0f;

// The row's pack that logical pack p is (the reverse scan walks the row from its end).
__device__ __forceinline__ long long row_pack(long long p, long long packs) {
#if KOPT_SCAN_REVERSE
  return packs - 1 - p;
#else
  (void)packs;
  return p;
#endif
}

// The V elements of a pack in the scan's order: the reverse scan takes them last to first.
template <int V>
__device__ __forceinline__ void scan_order(float (&v)[V]) {
#if KOPT_SCAN_REVERSE
#pragma unroll
  for (int e = 0; e < V / 2; ++e) {
    float const t = v[e];
    v[e] = v[V - 1 - e];
    v[V - 1 - e] = t;
  }
#else
  (void)v;
#endif
}

// The V elements (V = kVec: one 16-byte aligned 128-bit load; V = 1: one element) at x, as floats, in the
// scan's order; times the V mask bytes at m (1 where nonzero, else 0: x * mask as PyTorch computes it, one
// 4- or 8-byte load for a pack) when the scan is masked.
template <int V>
__device__ __forceinline__ void load_values(float (&v)[V], T const* x, unsigned char const* m,
                                            unsigned long long policy) {
  if (V == kVec) {
    uint4 const raw = load16(x, policy);
#pragma unroll
    for (int e = 0; e < V; ++e) v[e] = pack_value(raw, e);
  } else {
    (void)policy;
#if HINT == 1
    v[0] = kopt_strategy::to_float(__ldcs(x));
#else
    v[0] = kopt_strategy::to_float(__ldg(x));
#endif
  }
#if KOPT_SCAN_MASKED
  if (V == 8) {
    uint2 const bytes = __ldcs(reinterpret_cast<uint2 const*>(m));
#pragma unroll
    for (int e = 0; e < V; ++e) v[e] *= ((e < 4 ? bytes.x : bytes.y) >> (8 * (e % 4)) & 0xffu) != 0u ? 1.0f : 0.0f;
  } else if (V == 4) {
    unsigned const bytes = __ldcs(reinterpret_cast<unsigned const*>(m));
#pragma unroll
    for (int e = 0; e < V; ++e) v[e] *= (bytes >> (8 * e) & 0xffu) != 0u ? 1.0f : 0.0f;
  } else {
    v[0] *= __ldcs(m) != 0 ? 1.0f : 0.0f;
  }
#else
  (void)m;
#endif
  scan_order<V>(v);
}

// v (in the scan's order) rounded once to T, stored as one access of V elements.
template <int V>
__device__ __forceinline__ void store_values(T* y, float (&v)[V]) {
  scan_order<V>(v);
  kopt_strategy::Pack<T, V> p;
#pragma unroll
  for (int e = 0; e < V; ++e) p.v[e] = kopt_strategy::from_float<T>(v[e]);
  kopt_strategy::store_pack<T, V>(y, p);
}

// Inclusive scan of v over the LANES lanes of this thread's group (`lane` is the thread's place in it);
// all 32 lanes of the warp call it.
__device__ __forceinline__ float group_inclusive(float v, int lane) {
#pragma unroll
  for (int offset = 1; offset < LANES; offset <<= 1) {
    float const other = __shfl_up_sync(0xffffffffu, v, offset, LANES);
    if (lane >= offset) v = combine(v, other);
  }
  return v;
}

// Scans one row of `cols` elements (a multiple of V) from x (and its mask m) into y; a group whose row is
// past the end (live false) runs the same steps on the identity, loading and storing nothing. 64-bit pack
// indices.
template <int V>
__device__ __forceinline__ void scan_row(T* __restrict__ y, T const* __restrict__ x,
                                         unsigned char const* __restrict__ m, int cols, int lane, bool live,
                                         unsigned long long policy) {
  long long const packs = cols / V;
  float carry = kIdentity;  // the scan of the row before the current slice, in every lane of the group
#pragma unroll 1
  for (long long chunk = 0; chunk < packs; chunk += static_cast<long long>(UNROLL) * LANES) {
    float v[UNROLL][V];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      long long const p = chunk + u * LANES + lane;
      if (live && p < packs) {
        long long const q = row_pack(p, packs);
        load_values<V>(v[u], x + q * V, KOPT_SCAN_MASKED ? m + q * V : m, policy);  // m is null unmasked
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e) v[u][e] = kIdentity;
      }
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      if (chunk + u * LANES >= packs) break;  // the same for the whole warp: no lane has data from here on
#pragma unroll
      for (int e = 1; e < V; ++e) v[u][e] = combine(v[u][e], v[u][e - 1]);
      float const inclusive = group_inclusive(v[u][V - 1], lane);
      float exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1, LANES);
      if (lane == 0) exclusive = kIdentity;
      float const add = combine(carry, exclusive);
#if KOPT_SCAN_EXCLUSIVE
      // Each element gets the scan of the elements before it: the pack's inclusive values moved up by one.
#pragma unroll
      for (int e = V - 1; e > 0; --e) v[u][e] = combine(v[u][e - 1], add);
      v[u][0] = add;
#else
#pragma unroll
      for (int e = 0; e < V; ++e) v[u][e] = combine(v[u][e], add);
#endif
      carry = combine(carry, __shfl_sync(0xffffffffu, inclusive, LANES - 1, LANES));
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      long long const p = chunk + u * LANES + lane;
      if (live && p < packs) store_values<V>(y + row_pack(p, packs) * V, v[u]);
    }
  }
}

// The whole kernel but its parameter list: rows of the matrices (and mask: null when unmasked) for the
// group of this thread.
__device__ __forceinline__ void scan_rows(T* __restrict__ out, T const* __restrict__ in,
                                          unsigned char const* __restrict__ mask, int rows, int cols) {
  constexpr int kRowsPerBlock = BLOCK / LANES;
  int const lane = static_cast<int>(threadIdx.x) % LANES;
  long long const block_row = static_cast<long long>(blockIdx.x) * kRowsPerBlock;
  long long const warp_row = block_row + (static_cast<int>(threadIdx.x) & ~31) / LANES;
  // A whole warp past the end leaves; the others run every step with all 32 lanes (shuffles).
  if (warp_row >= rows || cols <= 0) return;
  long long const row = block_row + static_cast<int>(threadIdx.x) / LANES;
  bool const live = row < rows;
  long long const offset = (live ? row : 0ll) * static_cast<long long>(cols);
  unsigned long long const policy = evict_first_policy();
  bool const packed = cols % kVec == 0 && kopt_strategy::aligned_to(in, 16u) &&
                      kopt_strategy::aligned_to(out, 16u) &&
                      (!KOPT_SCAN_MASKED || kopt_strategy::aligned_to(mask, static_cast<unsigned>(kVec)));
  unsigned char const* const row_mask = KOPT_SCAN_MASKED ? mask + offset : mask;  // null unmasked
  if (packed) {
    scan_row<kVec>(out + offset, in + offset, row_mask, cols, lane, live, policy);
  } else {
    scan_row<1>(out + offset, in + offset, row_mask, cols, lane, live, policy);
  }
}

}  // namespace row_scan_warp_per_row

#if KOPT_SCAN_MASKED
extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, const unsigned char* __restrict__ mask,
              int rows, int cols) {
  row_scan_warp_per_row::scan_rows(out, in, mask, rows, cols);
}
#else
extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  row_scan_warp_per_row::scan_rows(out, in, nullptr, rows, cols);
}
#endif
