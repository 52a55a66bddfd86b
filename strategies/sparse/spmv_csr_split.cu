// Strategy spmv_csr_split: y = A x with A in CSR, load-balanced over nonzeros (not rows).
// Block b owns the nonzero tile [b*TILE, b*TILE + TILE) with TILE = BLOCK * ITEMS, so every block does the
// same work however skewed the rows are. Per block:
//  1. two warps find the tile's rows with a 32-way warp search of row_ptr (about 5 dependent loads):
//     the owned rows [rs, re) are those whose first nonzero lies in the tile; the row running into the
//     tile from before (if any) is the "head" row;
//  2. all threads load the tile's products vals[k] * x[col_idx[k]] into shared memory (ITEMS loads in
//     flight per thread, coalesced);
//  3. groups of LANES lanes reduce the rows' segments (xor shuffles); segments of at least BLOCK products
//     (long rows) are reduced by the whole block instead;
//  4. a row that lies inside the tile is written directly. A row split over tiles b0..b1 leaves one partial
//     per tile in a static scratch array; each tile then bumps the row's counter (keyed by b0), and the tile
//     that completes the count adds the partials in tile order (deterministic), writes y once (one
//     rounding) and resets the counter to 0 for the next launch. No atomics on y, no zero-fill.
// Knobs: BLOCK threads, ITEMS products per thread (TILE = BLOCK * ITEMS), LANES lanes per short row.
//
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob ITEMS = [4, 8, 16]
// kopt:knob LANES = [4, 8, 16, 32]
// The static scratch holds one slot per tile:
// kopt:constraint ceil_div({{ARG7}}, BLOCK * ITEMS) <= 524288
// kopt:launch grid=(max(1, ceil_div({{ARG7}}, BLOCK * ITEMS))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#ifndef LANES
#define LANES 8
#endif

static_assert(BLOCK % 32 == 0 && BLOCK >= 64, "BLOCK is at least two whole warps");
static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "LANES is a power of two <= 32");

namespace spmv_csr_split {

constexpr int kTile = BLOCK * ITEMS;
constexpr int kMaxTiles = 524288;

__device__ float tail_part[kMaxTiles];     // partial of the row that starts in tile b and runs past it
__device__ float head_part[kMaxTiles];     // partial of the row that runs into tile b from before
__device__ unsigned row_count[kMaxTiles];  // tiles done for the split row owned by tile b (reset to 0)

// First index i in [0, n) with a[i] >= v (n if none), by the whole warp: 32 probes per round.
__device__ int warp_lower_bound(const int* __restrict__ a, int n, long long v) {
  int const lane = threadIdx.x & 31;
  int lo = 0;
  int hi = n;  // the answer is in [lo, hi]; hi == n or a[hi] >= v
  while (hi - lo > 32) {
    int const stride = (hi - lo + 31) / 32;
    int const probe = lo + (lane + 1) * stride - 1;
    bool const pred = probe >= hi || a[probe] >= v;
    unsigned const ballot = __ballot_sync(0xffffffffu, pred);
    int const first = __ffs(ballot) - 1;
    if (ballot == 0u) {
      lo = hi;  // every probe (the last one is hi - 1 or beyond) is below v: the answer is hi
    } else {
      int const new_hi = min(lo + (first + 1) * stride - 1, hi);
      lo = first == 0 ? lo : lo + first * stride;
      hi = new_hi;
    }
  }
  int const i = lo + lane;
  bool const pred = i < hi && a[i] >= v;
  unsigned const ballot = __ballot_sync(0xffffffffu, pred);
  return ballot == 0u ? hi : lo + __ffs(ballot) - 1;
}

// Finishes row r with this tile's partial `sum`: rows inside the tile are stored; split rows go through
// the per-tile scratch and the last of their tiles stores the total.
template <typename T>
__device__ void finish_row(T* __restrict__ y, int r, float sum, int row_begin, int row_end, int tile,
                           long long tile_begin, long long tile_end) {
  if (row_begin >= tile_begin && row_end <= tile_end) {
    y[r] = kopt_strategy::from_float<T>(sum);
    return;
  }
  int const b0 = row_begin / kTile;
  int const b1 = (row_end - 1) / kTile;
  if (tile == b0) {
    tail_part[tile] = sum;
  } else {
    head_part[tile] = sum;
  }
  __threadfence();
  unsigned const done = atomicAdd(&row_count[b0], 1u);
  if (done == static_cast<unsigned>(b1 - b0)) {
    __threadfence();
    float total = __ldcg(&tail_part[b0]);
    for (int b = b0 + 1; b <= b1; ++b) total += __ldcg(&head_part[b]);
    y[r] = kopt_strategy::from_float<T>(total);
    row_count[b0] = 0u;
  }
}

}  // namespace spmv_csr_split

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ y, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
              const {{T}}* __restrict__ vals, const {{T}}* __restrict__ x, int M, int N, int NNZ) {
  using namespace kopt_strategy;
  using namespace spmv_csr_split;
  (void)N;
  __shared__ float s_prod[kTile];
  __shared__ int s_rows[2];  // rs, re
  __shared__ int s_long[ITEMS + 1];
  __shared__ int s_long_count;
  __shared__ float s_red[BLOCK / 32];

  int const tile = static_cast<int>(blockIdx.x);
  long long const tile_begin = static_cast<long long>(tile) * kTile;
  long long const tile_end = min(tile_begin + kTile, static_cast<long long>(NNZ));
  bool const last_tile = tile == static_cast<int>(gridDim.x) - 1;
  int const warp = static_cast<int>(threadIdx.x) / 32;
  int const lane = static_cast<int>(threadIdx.x) & 31;

  if (warp == 0) {
    int const rs = warp_lower_bound(row_ptr, M, tile_begin);
    if (lane == 0) s_rows[0] = rs;
  } else if (warp == 1) {
    int const re = last_tile ? M : warp_lower_bound(row_ptr, M, tile_end);
    if (lane == 0) {
      s_rows[1] = re;
      s_long_count = 0;
    }
  }
  // Products of the tile; padding entries are 0.
  {
    int cols[ITEMS];
    float v[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      long long const k = tile_begin + i * BLOCK + threadIdx.x;
      cols[i] = k < tile_end ? col_idx[k] : -1;
      v[i] = k < tile_end ? to_float(vals[k]) : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      s_prod[i * BLOCK + threadIdx.x] = cols[i] >= 0 ? v[i] * to_float(x[cols[i]]) : 0.0f;
    }
  }
  __syncthreads();
  int const rs = s_rows[0];
  int const re = s_rows[1];
  // The head row rs - 1 runs into this tile when the tile does not start at a row boundary.
  bool const has_head = tile_begin < NNZ && rs > 0 && (rs == M || row_ptr[rs] > tile_begin);
  int const first_row = has_head ? rs - 1 : rs;
  int const count = re - first_row;

  // Short segments: a group of LANES lanes per row; every lane of a warp runs the same trip count.
  constexpr int kGroups = BLOCK / LANES;
  constexpr int kGroupsPerWarp = 32 / LANES;
  int const group_in_warp = lane / LANES;
  int const sub = lane % LANES;
  for (int q0 = warp * kGroupsPerWarp; q0 < count; q0 += kGroups) {
    int const q = q0 + group_in_warp;
    int r = -1;
    int row_begin = 0;
    int row_end = 0;
    int s = 0;
    int e = 0;
    if (q < count) {
      r = first_row + q;
      row_begin = row_ptr[r];
      row_end = row_ptr[r + 1];
      s = static_cast<int>(max(static_cast<long long>(row_begin), tile_begin) - tile_begin);
      e = static_cast<int>(min(static_cast<long long>(row_end), tile_end) - tile_begin);
      if (e - s >= BLOCK) {
        if (sub == 0) s_long[atomicAdd(&s_long_count, 1)] = q;
        r = -1;
        e = s;
      }
    }
    float sum = 0.0f;
    for (int i = s + sub; i < e; i += LANES) sum += s_prod[i];
#pragma unroll
    for (int offset = LANES / 2; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (r >= 0 && sub == 0) finish_row(y, r, sum, row_begin, row_end, tile, tile_begin, tile_end);
  }
  __syncthreads();
  // Long segments (at most ITEMS of them): the whole block.
  int const long_count = s_long_count;
  for (int l = 0; l < long_count; ++l) {
    int const r = first_row + s_long[l];
    int const row_begin = row_ptr[r];
    int const row_end = row_ptr[r + 1];
    int const s = static_cast<int>(max(static_cast<long long>(row_begin), tile_begin) - tile_begin);
    int const e = static_cast<int>(min(static_cast<long long>(row_end), tile_end) - tile_begin);
    float sum = 0.0f;
    for (int i = s + static_cast<int>(threadIdx.x); i < e; i += BLOCK) sum += s_prod[i];
    sum = warp_sum(sum);
    if (lane == 0) s_red[warp] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
      float total = 0.0f;
#pragma unroll
      for (int w = 0; w < BLOCK / 32; ++w) total += s_red[w];
      finish_row(y, r, total, row_begin, row_end, tile, tile_begin, tile_end);
    }
    __syncthreads();
  }
}
