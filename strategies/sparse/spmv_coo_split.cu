// Strategy spmv_coo_split: y = A x with A in COO sorted by row, load-balanced over nonzeros.
// Block b owns the nonzero tile [b*TILE, b*TILE + TILE), TILE = BLOCK * ITEMS. Because the nonzeros are
// sorted by row, the rows whose first nonzero lies in the tile are read off its neighbours in O(1):
// rs = row_idx[b*TILE - 1] + 1 and re = row_idx[last of tile] + 1 (the last tile also owns the trailing
// empty rows up to M). Per block:
//  1. all threads load the tile's products vals[k] * x[col_idx[k]] into shared memory and, from the row
//     changes between neighbouring entries, a table of each row's first product (empty rows included);
//  2. groups of LANES lanes reduce the rows' segments (xor shuffles); segments of at least BLOCK products
//     (long rows) are reduced by the whole block;
//  3. a row inside the tile is written directly (rows without nonzeros get 0, as in the reference). A row
//     split over tiles b0..b1 leaves one partial per tile in static scratch; the tile that completes the
//     row's counter (keyed by b0; b0 and b1 are found by a galloping search over tile boundaries, one or
//     two loads for ordinary rows) adds the partials in tile order, writes y once and resets the counter.
// No atomics on y, no zero-fill, deterministic. Knobs: BLOCK threads, ITEMS products per thread, LANES
// lanes per short row.
//
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob ITEMS = [2, 4, 8]
// kopt:knob LANES = [4, 8, 16, 32]
// Products and row-start table in static shared memory (8 bytes per product):
// kopt:constraint BLOCK * ITEMS <= 4096
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
static_assert(BLOCK * ITEMS <= 4096, "shared memory");
static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "LANES is a power of two <= 32");

namespace spmv_coo_split {

constexpr int kTile = BLOCK * ITEMS;
constexpr int kMaxTiles = 524288;
constexpr int kTable = kTile + 2;  // row starts for up to kTile + 1 rows plus the end

__device__ float tail_part[kMaxTiles];
__device__ float head_part[kMaxTiles];
__device__ unsigned row_count[kMaxTiles];

// The tile holding row r's first nonzero, given that r runs into tile `tile` from tile - 1: the largest
// t < tile with t == 0 or row_idx[t*kTile - 1] < r. Galloping, then bisection.
__device__ int owner_tile(const int* __restrict__ row_idx, int r, int tile) {
  auto before = [&](int t) { return t == 0 || row_idx[static_cast<long long>(t) * kTile - 1] < r; };
  int hi = tile;  // !before(hi)
  int lo = tile - 1;
  int step = 1;
  while (!before(lo)) {
    hi = lo;
    step *= 2;
    lo = max(hi - step, 0);
  }
  while (hi - lo > 1) {
    int const mid = lo + (hi - lo) / 2;
    if (before(mid)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The tile holding row r's last nonzero, given that r runs past the end of tile `tile`: the smallest
// t > tile that is the last tile or after which r does not go on (the next tile's first nonzero is in a
// later row). This is the same test as `runs_on` in the kernel, so every tile of a row agrees on where it
// ends, also when the row's last nonzero is the last of its tile (testing "the tile's last row is after
// r" missed that case: the row waited for one tile too many and was not written; found on the H200).
__device__ int end_tile(const int* __restrict__ row_idx, int r, int tile, int tiles) {
  auto ends = [&](int t) { return t >= tiles - 1 || row_idx[static_cast<long long>(t + 1) * kTile] != r; };
  int lo = tile;  // !ends(lo)
  int hi = tile + 1;
  int step = 1;
  while (!ends(hi)) {
    lo = hi;
    step *= 2;
    hi = min(lo + step, tiles - 1);
  }
  while (hi - lo > 1) {
    int const mid = lo + (hi - lo) / 2;
    if (ends(mid)) {
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return hi;
}

// Finishes row r with this tile's partial: stored directly when the row lies in the tile (b0 == b1),
// otherwise through the scratch, by the last of the row's tiles.
template <typename T>
__device__ void finish_row(T* __restrict__ y, int r, float sum, int b0, int b1, int tile) {
  if (b0 == b1) {
    y[r] = kopt_strategy::from_float<T>(sum);
    return;
  }
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

}  // namespace spmv_coo_split

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* __restrict__ y, const int* __restrict__ row_idx, const int* __restrict__ col_idx,
              const {{T}}* __restrict__ vals, const {{T}}* __restrict__ x, int M, int N, int NNZ) {
  using namespace kopt_strategy;
  using namespace spmv_coo_split;
  (void)N;
  __shared__ float s_prod[kTile];
  __shared__ int s_start[kTable];
  __shared__ int s_long[ITEMS + 1];
  __shared__ int s_long_count;
  __shared__ int s_b[2];  // owner tile of the head row, end tile of the row running past the tile
  __shared__ float s_red[BLOCK / 32];

  int const tile = static_cast<int>(blockIdx.x);
  int const tiles = static_cast<int>(gridDim.x);
  long long const tile_begin = static_cast<long long>(tile) * kTile;
  long long const tile_end = min(tile_begin + kTile, static_cast<long long>(NNZ));
  int const len = static_cast<int>(max(tile_end - tile_begin, 0LL));
  bool const last_tile = tile == tiles - 1;
  int const warp = static_cast<int>(threadIdx.x) / 32;
  int const lane = static_cast<int>(threadIdx.x) & 31;

  // Rows of the tile (uniform over the block: every thread reads the same few entries).
  int const rs = tile == 0 ? 0 : row_idx[tile_begin - 1] + 1;
  int const last_row = len > 0 ? row_idx[tile_end - 1] : rs - 1;
  int const re = last_tile ? M : last_row + 1;
  bool const has_head = len > 0 && tile > 0 && row_idx[tile_begin] < rs;
  bool const runs_on = !last_tile && len > 0 && row_idx[tile_end] == last_row;
  int const first_row = has_head ? rs - 1 : rs;
  int const count = re - first_row;  // rows first_row .. re - 1
  bool const table = count + 1 <= kTable;

  if (threadIdx.x == 0) {
    s_long_count = 0;
    s_b[0] = has_head ? owner_tile(row_idx, first_row, tile) : tile;
  } else if (threadIdx.x == 32) {
    s_b[1] = runs_on ? end_tile(row_idx, last_row, tile, tiles) : tile;
  }
  {
    int cols[ITEMS];
    int rows[ITEMS];
    int prevs[ITEMS];
    float v[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      int const local = i * BLOCK + static_cast<int>(threadIdx.x);
      long long const k = tile_begin + local;
      bool const in = local < len;
      cols[i] = in ? col_idx[k] : -1;
      v[i] = in ? to_float(vals[k]) : 0.0f;
      rows[i] = in ? row_idx[k] : 0;
      prevs[i] = in ? (local == 0 ? first_row - 1 : row_idx[k - 1]) : 0;
    }
#pragma unroll
    for (int i = 0; i < ITEMS; ++i) {
      int const local = i * BLOCK + static_cast<int>(threadIdx.x);
      s_prod[local] = cols[i] >= 0 ? v[i] * to_float(x[cols[i]]) : 0.0f;
      // Rows prevs[i] + 1 .. rows[i] start at this product (empty rows in between start here too).
      if (table && local < len) {
        for (int r = prevs[i] + 1; r <= rows[i]; ++r) s_start[r - first_row] = local;
      }
    }
  }
  // Rows after the tile's last nonzero (empty rows of the last tile) and the end sentinel.
  if (table) {
    for (int q = last_row + 1 - first_row + static_cast<int>(threadIdx.x); q <= count; q += BLOCK) {
      s_start[q] = len;
    }
  }
  __syncthreads();
  int const head_b0 = s_b[0];
  int const run_b1 = s_b[1];

  // Segment [s, e) of the tile's row q, and its tiles b0..b1.
  auto segment = [&](int q, int& s, int& e, int& b0, int& b1) {
    int const r = first_row + q;
    if (table) {
      s = s_start[q];
      e = s_start[q + 1];
    } else {  // many empty rows: search the tile's row indices instead
      int lo = 0;
      int hi = len;
      while (lo < hi) {
        int const mid = (lo + hi) / 2;
        if (row_idx[tile_begin + mid] < r) { lo = mid + 1; } else { hi = mid; }
      }
      s = lo;
      hi = len;
      while (lo < hi) {
        int const mid = (lo + hi) / 2;
        if (row_idx[tile_begin + mid] <= r) { lo = mid + 1; } else { hi = mid; }
      }
      e = lo;
    }
    b0 = (has_head && q == 0) ? head_b0 : tile;
    b1 = (runs_on && r == last_row) ? run_b1 : tile;
  };

  constexpr int kGroups = BLOCK / LANES;
  constexpr int kGroupsPerWarp = 32 / LANES;
  int const group_in_warp = lane / LANES;
  int const sub = lane % LANES;
  for (int q0 = warp * kGroupsPerWarp; q0 < count; q0 += kGroups) {
    int const q = q0 + group_in_warp;
    int s = 0;
    int e = 0;
    int b0 = 0;
    int b1 = 0;
    bool live = q < count;
    if (live) {
      segment(q, s, e, b0, b1);
      if (e - s >= BLOCK) {
        if (sub == 0) s_long[atomicAdd(&s_long_count, 1)] = q;
        live = false;
        e = s;
      }
    }
    float sum = 0.0f;
    for (int i = s + sub; i < e; i += LANES) sum += s_prod[i];
#pragma unroll
    for (int offset = LANES / 2; offset > 0; offset >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (live && sub == 0) finish_row(y, first_row + q, sum, b0, b1, tile);
  }
  __syncthreads();
  int const long_count = s_long_count;
  for (int l = 0; l < long_count; ++l) {
    int const q = s_long[l];
    int s = 0;
    int e = 0;
    int b0 = 0;
    int b1 = 0;
    segment(q, s, e, b0, b1);
    float sum = 0.0f;
    for (int i = s + static_cast<int>(threadIdx.x); i < e; i += BLOCK) sum += s_prod[i];
    sum = warp_sum(sum);
    if (lane == 0) s_red[warp] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
      float total = 0.0f;
#pragma unroll
      for (int w = 0; w < BLOCK / 32; ++w) total += s_red[w];
      finish_row(y, first_row + q, total, b0, b1, tile);
    }
    __syncthreads();
  }
}
