// The column scans' tile of rows (col_scan_strip and col_scan_split_rows; spliced into their namespace by
// `// kopt:include col_tile.cuh` after T and the knobs STRIP, BLOCK and ROWS). A block owns a strip of
// STRIP consecutive columns; a tile is ROWS consecutive rows of it. kLanes = STRIP / kPack threads across
// the strip each hold kPack columns (one 16-byte pack of a row, so the lanes' accesses to one row are
// contiguous), and kGroups = BLOCK / kLanes groups of them down the strip each hold kUnroll = ROWS /
// kGroups consecutive rows of the tile: group g rows g * kUnroll .. g * kUnroll + kUnroll - 1. A thread
// issues its kUnroll loads before the first add, scans its rows serially in registers, and the groups
// are joined in two steps: a shuffle scan across the groups of one warp (log2(32 / kLanes) steps, none
// when a group fills a warp or more), then, for each column, one thread (the "scanner" of that column,
// threadIdx.x < STRIP) turns the kSlabs warp (or group) totals into exclusive offsets in shared memory.
// Every output is rounded once to T; every element is read and written by the same thread, read first.
//
// A row starts on a 16-byte boundary only when cols is a multiple of kPack (and the matrix is aligned).
// When it is not, the thread's columns are tx, tx + kLanes, ... of the strip instead (element accesses,
// still one contiguous stretch of a row across the lanes), so any cols and any alignment work. A column
// slot e * kLanes + tx names the thread's e-th column in shared memory in both cases (conflict-free).
// 64-bit indices.

constexpr int kPack = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kLanes = STRIP / kPack;                     // threads across the strip
constexpr int kGroups = BLOCK / kLanes;                   // threads down the strip
constexpr int kUnroll = ROWS / kGroups;                   // rows per thread (in flight, then scanned)
constexpr int kSlabWidth = kLanes < 32 ? 32 : kLanes;     // threads of a slab: a warp or a group
constexpr int kSlabs = BLOCK / kSlabWidth;                // warps (or groups) down the strip
static_assert(STRIP % kPack == 0 && (kLanes & (kLanes - 1)) == 0, "a power-of-two number of whole packs");
static_assert(STRIP <= BLOCK, "one scanner thread per column of the strip");
static_assert(BLOCK % kLanes == 0 && ROWS % kGroups == 0 && kUnroll >= 1, "whole rows per thread");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");

// Totals (written by the last group of each slab) and offsets (written by the scanners): two arrays, so a
// fast thread writing the next tile's totals never overwrites offsets a slow one has yet to read.
struct ColTileScratch {
  float totals[kSlabs][STRIP];
  float offsets[kSlabs][STRIP];
};

// The matrix column of slot (tx, e) of the strip starting at c0.
__device__ __forceinline__ long long tile_column(long long c0, int tx, int e, bool vec) {
  return vec ? c0 + static_cast<long long>(tx) * kPack + e : c0 + tx + static_cast<long long>(e) * kLanes;
}

// Loads rows r0 + ty * kUnroll + u (u < kUnroll) of the thread's columns into v, zeros past rows or cols.
__device__ __forceinline__ void load_tile(float (&v)[kUnroll][kPack], T const* __restrict__ in, long long r0,
                                          long long rows, long long cols, long long c0, bool vec, int tx, int ty) {
  long long const r = r0 + static_cast<long long>(ty) * kUnroll;
  if (vec) {
    long long const c = tile_column(c0, tx, 0, true);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (c < cols && r + u < rows) {
        kopt_strategy::Pack<T, kPack> const p = kopt_strategy::load_pack<T, kPack>(in + (r + u) * cols + c);
#pragma unroll
        for (int e = 0; e < kPack; ++e) v[u][e] = kopt_strategy::to_float(p.v[e]);
      } else {
#pragma unroll
        for (int e = 0; e < kPack; ++e) v[u][e] = 0.0f;
      }
    }
    return;
  }
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
    for (int e = 0; e < kPack; ++e) {
      long long const c = tile_column(c0, tx, e, false);
      v[u][e] = c < cols && r + u < rows ? kopt_strategy::to_float(in[(r + u) * cols + c]) : 0.0f;
    }
  }
}

// Scans the thread's rows in place and across the groups of its warp. Returns, per column, the sum of
// the tile's rows of the warp (or group) before this thread's rows, in `before`; the last group of each
// slab writes the slab's totals to scratch.totals. The caller then waits at a barrier.
__device__ __forceinline__ void scan_tile(float (&v)[kUnroll][kPack], float (&before)[kPack], ColTileScratch& scratch,
                                          int tx, int lane, int slab) {
#pragma unroll
  for (int u = 1; u < kUnroll; ++u) {
#pragma unroll
    for (int e = 0; e < kPack; ++e) v[u][e] += v[u - 1][e];
  }
#pragma unroll
  for (int e = 0; e < kPack; ++e) {
    float const own = v[kUnroll - 1][e];
    float inclusive = own;
#pragma unroll
    for (int offset = kLanes; offset < 32; offset <<= 1) {  // lanes offset apart: the same columns
      float const other = __shfl_up_sync(0xffffffffu, inclusive, offset);
      if (lane >= offset) inclusive += other;
    }
    before[e] = inclusive - own;
    if (kLanes >= 32 || lane >= 32 - kLanes) scratch.totals[slab][e * kLanes + tx] = inclusive;
  }
}

// The scanner of column slot s (threadIdx.x < STRIP), after the barrier: the tile's total of the column.
__device__ __forceinline__ float slab_total(ColTileScratch const& scratch, int s) {
  float total = 0.0f;
#pragma unroll
  for (int slab = 0; slab < kSlabs; ++slab) total += scratch.totals[slab][s];
  return total;
}

// The scanner of column slot s: each slab's offset is `base` plus the totals of the slabs before it.
__device__ __forceinline__ void slab_offsets(ColTileScratch& scratch, int s, float base) {
#pragma unroll
  for (int slab = 0; slab < kSlabs; ++slab) {
    scratch.offsets[slab][s] = base;
    base += scratch.totals[slab][s];
  }
}

// After the second barrier: writes v + before + the slab's offset, each rounded once to T.
__device__ __forceinline__ void store_tile(T* __restrict__ out, float const (&v)[kUnroll][kPack],
                                           float const (&before)[kPack], ColTileScratch const& scratch, long long r0,
                                           long long rows, long long cols, long long c0, bool vec, int tx, int ty,
                                           int slab) {
  float add[kPack];
#pragma unroll
  for (int e = 0; e < kPack; ++e) add[e] = before[e] + scratch.offsets[slab][e * kLanes + tx];
  long long const r = r0 + static_cast<long long>(ty) * kUnroll;
  if (vec) {
    long long const c = tile_column(c0, tx, 0, true);
    if (c >= cols) return;
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (r + u < rows) {
        kopt_strategy::Pack<T, kPack> p;
#pragma unroll
        for (int e = 0; e < kPack; ++e) p.v[e] = kopt_strategy::from_float<T>(v[u][e] + add[e]);
        kopt_strategy::store_pack<T, kPack>(out + (r + u) * cols + c, p);
      }
    }
    return;
  }
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
    for (int e = 0; e < kPack; ++e) {
      long long const c = tile_column(c0, tx, e, false);
      if (c < cols && r + u < rows) out[(r + u) * cols + c] = kopt_strategy::from_float<T>(v[u][e] + add[e]);
    }
  }
}
