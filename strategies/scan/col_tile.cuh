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
//
// PACKED 1 (the *_packed functions): a thread keeps its rows as loaded, each a 16-byte pack in four 32-bit
// registers (kPack BF16 or FP32 elements), and widens them to FP32 twice, when it sums its rows for the
// tile scan and when it writes them (a second running sum in the same order, so every output is the same
// FP32 value as PACKED 0's, rounded the same way). For BF16 that is half the registers of the widened
// values (PACKED 0 holds kUnroll * 8 floats, PACKED 1 kUnroll * 4 words), so a tile of as many bytes as
// FP32's fits the same registers. Each row's pack is written by one 128-bit store: PACKED 0's
// Pack<T, kPack> copy compiles to four 32-bit stores per pack (Nsight: 8.7 of 32 bytes used per sector of
// the store requests), four times the store instructions and L2 write requests. The element path (cols
// not a multiple of kPack, unaligned matrices) keeps the elements' bits in the same packs and accesses
// element by element as PACKED 0 does.

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

// ---- PACKED 1 ----

constexpr int kPerWord = kPack / 4;  // elements of T per 32-bit word of a pack (2 BF16, 1 FP32)

// Element e (a constant once unrolled) of a pack as FP32: a BF16 is the high half of an FP32, element 2k
// is the low half of word k (little endian).
__device__ __forceinline__ float pack_float(uint4 const& p, int e) {
  int const w = e / kPerWord;
  unsigned const word = w == 0 ? p.x : (w == 1 ? p.y : (w == 2 ? p.z : p.w));
  if (kPerWord == 1) return __uint_as_float(word);
  return __uint_as_float((e & 1) != 0 ? (word & 0xffff0000u) : (word << 16));
}

// The bits of one element of T, in the low bits of a word (U = T: a template, so that only T's branch is
// compiled).
template <typename U = T>
__device__ __forceinline__ unsigned element_bits(U const* p) {
  if constexpr (sizeof(U) == 2) {
    return static_cast<unsigned>(*reinterpret_cast<unsigned short const*>(p));
  } else {
    return *reinterpret_cast<unsigned const*>(p);
  }
}

// FP32 values a[0..kPack) rounded to T, as a pack (BF16: two per word with one conversion).
template <typename U = T>
__device__ __forceinline__ uint4 round_pack(float const (&a)[kPack]) {
  unsigned w[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    if constexpr (sizeof(U) == 2) {
      __nv_bfloat162 const h = __floats2bfloat162_rn(a[2 * k], a[2 * k + 1]);  // .x (element 2k) low
      w[k] = *reinterpret_cast<unsigned const*>(&h);
    } else {
      w[k] = __float_as_uint(a[k]);
    }
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}

// One 128-bit store (a plain, weak st.global.v4): a uint4 assignment in store_tile_packed comes out of
// NVVM as four 32-bit stores, and __stwb / __stcg as strong stores (STG.E.128.STRONG.SM / .GPU).
__device__ __forceinline__ void store16(T* p, uint4 const& v) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
}

// Loads rows r0 + ty * kUnroll + u (u < kUnroll) of the thread's columns into raw, zeros past rows or cols.
__device__ __forceinline__ void load_tile_packed(uint4 (&raw)[kUnroll], T const* __restrict__ in, long long r0,
                                                 long long rows, long long cols, long long c0, bool vec, int tx,
                                                 int ty) {
  long long const r = r0 + static_cast<long long>(ty) * kUnroll;
  if (vec) {
    long long const c = tile_column(c0, tx, 0, true);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      raw[u] = c < cols && r + u < rows ? *reinterpret_cast<uint4 const*>(in + (r + u) * cols + c)
                                        : make_uint4(0u, 0u, 0u, 0u);
    }
    return;
  }
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    unsigned w[4] = {0u, 0u, 0u, 0u};
#pragma unroll
    for (int e = 0; e < kPack; ++e) {
      long long const c = tile_column(c0, tx, e, false);
      unsigned const bits = c < cols && r + u < rows ? element_bits(in + (r + u) * cols + c) : 0u;
      w[e / kPerWord] |= kPerWord == 1 ? bits : bits << (16 * (e & 1));
    }
    raw[u] = make_uint4(w[0], w[1], w[2], w[3]);
  }
}

// scan_tile for packs: the thread's column totals over its rows (summed in row order, as scan_tile's
// in-place scan), then the same shuffle scan across the groups of the warp, `before` and the slab totals.
__device__ __forceinline__ void scan_tile_packed(uint4 const (&raw)[kUnroll], float (&before)[kPack],
                                                 ColTileScratch& scratch, int tx, int lane, int slab) {
  float own[kPack];
#pragma unroll
  for (int e = 0; e < kPack; ++e) own[e] = pack_float(raw[0], e);
#pragma unroll
  for (int u = 1; u < kUnroll; ++u) {
#pragma unroll
    for (int e = 0; e < kPack; ++e) own[e] += pack_float(raw[u], e);
  }
#pragma unroll
  for (int e = 0; e < kPack; ++e) {
    float inclusive = own[e];
#pragma unroll
    for (int offset = kLanes; offset < 32; offset <<= 1) {  // lanes offset apart: the same columns
      float const other = __shfl_up_sync(0xffffffffu, inclusive, offset);
      if (lane >= offset) inclusive += other;
    }
    before[e] = inclusive - own[e];
    if (kLanes >= 32 || lane >= 32 - kLanes) scratch.totals[slab][e * kLanes + tx] = inclusive;
  }
}

// store_tile for packs, after the second barrier: the thread's running sum of its rows (the same FP32
// additions as scan_tile's) plus before and the slab's offset, each rounded once to T; one 128-bit store
// per row on the 128-bit path.
__device__ __forceinline__ void store_tile_packed(T* __restrict__ out, uint4 const (&raw)[kUnroll],
                                                  float const (&before)[kPack], ColTileScratch const& scratch,
                                                  long long r0, long long rows, long long cols, long long c0,
                                                  bool vec, int tx, int ty, int slab) {
  // The packs as new values (an empty asm that "changes" them): otherwise the compiler reuses the FP32
  // values scan_tile_packed widened, holding all of them across the barrier, which is the register cost
  // PACKED 1 is there to avoid.
  uint4 packs[kUnroll];
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
    packs[u] = raw[u];
    asm volatile("" : "+r"(packs[u].x), "+r"(packs[u].y), "+r"(packs[u].z), "+r"(packs[u].w));
  }
  float add[kPack];
#pragma unroll
  for (int e = 0; e < kPack; ++e) add[e] = before[e] + scratch.offsets[slab][e * kLanes + tx];
  long long const r = r0 + static_cast<long long>(ty) * kUnroll;
  float run[kPack];
  if (vec) {
    long long const c = tile_column(c0, tx, 0, true);
    if (c >= cols) return;
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      float y[kPack];
#pragma unroll
      for (int e = 0; e < kPack; ++e) {
        run[e] = u == 0 ? pack_float(packs[0], e) : run[e] + pack_float(packs[u], e);
        y[e] = run[e] + add[e];
      }
      if (r + u < rows) store16(out + (r + u) * cols + c, round_pack(y));
    }
    return;
  }
#pragma unroll
  for (int u = 0; u < kUnroll; ++u) {
#pragma unroll
    for (int e = 0; e < kPack; ++e) {
      run[e] = u == 0 ? pack_float(packs[0], e) : run[e] + pack_float(packs[u], e);
      long long const c = tile_column(c0, tx, e, false);
      if (c < cols && r + u < rows) out[(r + u) * cols + c] = kopt_strategy::from_float<T>(run[e] + add[e]);
    }
  }
}
