// The column arg-reductions' shared body (spliced into col_argmax_strip, col_argmax_split_rows,
// col_argmin_strip, col_argmin_split_rows and mid_arg*_split_rows by `// kopt:include col_arg_strip.cuh`,
// inside the strategy's namespace after `using T`, ../reduction/hinted_loads.cuh and the knobs STRIP, BLOCK,
// UNROLL, HINT, PACKED, PAD).
// out[c] = the row of the largest (ARGMIN 1: smallest) in[r*cols + c] over r < rows (stored as the
// contract's index type: int32, or int64 for the mid_* families): the first
// such row on ties, and a NaN wins over every number in both directions (PyTorch propagates NaN: argmax
// and argmin of a column holding a NaN are the first NaN's row).
//
// Layout as col_strip.cuh: a block owns a strip of STRIP consecutive columns, kLanes = STRIP / kVec threads
// across it, each holding kVec columns (one 16-byte pack of a row: the lanes' loads of one row are
// contiguous), and kRowLanes = BLOCK / kLanes threads down it, thread (ty, tx) taking rows ty,
// ty + kRowLanes, ... with UNROLL independent loads in flight. When cols is not a multiple of kVec (or the
// matrix is not 16-byte aligned) the thread's columns are tx, tx + kLanes, ... instead (element loads,
// still one contiguous stretch per row across the lanes). Each thread keeps a (value, row) pair per
// column: its rows arrive in increasing order, so a strict comparison keeps the first. Pairs from
// different threads, row lanes or blocks are merged by `beats` (NaN first, then the better value, then the
// smaller row), a total order, so the merge order never changes the result. A pair starts as (the worst
// value, row 0): it only survives when every value of the column is that worst value (-inf, resp. +inf),
// and then row 0 is the answer. 64-bit element offsets; rows and columns fit an int.
//
// PACKED 1 (BF16's 128-bit path): the fold above costs FP32's per-element work (a widening, two NaN tests,
// a compare, selects: eleven ALU instructions per element in the SASS) for half the bytes, which made the
// BF16 kernels ALU-bound at half of DRAM speed (Nsight, H200: SM 73 %, DRAM 44 %). Instead each column
// keeps one 32-bit key: its high half an order-preserving code of the value (key_codes: both halves of a
// loaded word at once), its low half 0xffff - i for the thread's i-th row of the stretch, so the largest
// key is the best value's first row and a fold is a key and an unsigned max: about five ALU instructions
// per element in all. A thread folds 65536 of its rows at most into its keys, then turns them into
// (value, row) pairs and merges those (merge_key), so any number of rows works. PACKED 0 (and FP32, and
// the element path) folds float pairs as above.
// PAD 1: the shared (value, row) arrays of the tree have rows of STRIP + kLanes slots when a warp spans
// several row lanes (kLanes < 32), so the lanes of a warp, kLanes slots apart per row lane, fall in
// distinct banks (unpadded, the warp's row lanes hit the same banks: 2- to 8-way conflicts).
// PAD 0: rows of STRIP slots.
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef ARGMIN
#define ARGMIN 0
#endif

static_assert(STRIP % kVec == 0, "a strip is whole 16-byte packs");
constexpr int kLanes = STRIP / kVec;       // threads across the strip
constexpr int kRowLanes = BLOCK / kLanes;  // threads down the strip
static_assert(kLanes >= 1 && kLanes <= BLOCK && BLOCK % kLanes == 0, "the strip fits the block");
static_assert((kRowLanes & (kRowLanes - 1)) == 0, "a power-of-two number of row lanes (the tree)");
// Rows in flight per thread on the element path: as many loaded registers as the 128-bit path's UNROLL.
constexpr int kScalarUnroll = UNROLL * 4 / kVec > 0 ? UNROLL * 4 / kVec : 1;

// The block's pairs: slot e * kLanes + tx of row lane ty's row holds thread (ty, tx)'s e-th column. A row
// is kStride slots: with PAD, a warp's row lanes (32 / kLanes of them when kLanes < 32) start kLanes banks
// apart, so its 32 slots fall in 32 distinct banks (STRIP is a multiple of 32).
constexpr int kStride = PAD && kLanes < 32 ? STRIP + kLanes : STRIP;
using StripValues = float[kRowLanes][kStride];
using StripRows = int[kRowLanes][kStride];
// Whether the 128-bit path folds BF16 pairs as 32-bit keys (PACKED; see the header).
constexpr bool kKeys = PACKED && sizeof(T) == 2;

// The value every other number beats.
__device__ __forceinline__ float worst() {
#if ARGMIN
  return INFINITY;
#else
  return -INFINITY;
#endif
}

// Whether number v is strictly better than number w.
__device__ __forceinline__ bool better(float v, float w) {
#if ARGMIN
  return v < w;
#else
  return v > w;
#endif
}

// Folds row r's value v into a thread's pair (rows arrive in increasing order; a NaN is taken unless the
// pair already holds one).
__device__ __forceinline__ void fold(float& best, int& at, float v, int r) {
  bool const take = (v != v) ? best == best : better(v, best);
  if (take) {
    best = v;
    at = r;
  }
}

// Whether pair (bv, br) beats pair (av, ar): NaN above every number, then the better value; on equal
// values (or two NaNs) the smaller row.
__device__ __forceinline__ bool beats(float bv, int br, float av, int ar) {
  bool const a_nan = av != av;
  bool const b_nan = bv != bv;
  if (a_nan || b_nan) return b_nan && (!a_nan || br < ar);
  return better(bv, av) || (bv == av && br < ar);
}

__device__ __forceinline__ void merge(float& av, int& ar, float bv, int br) {
  if (beats(bv, br, av, ar)) {
    av = bv;
    ar = br;
  }
}

// PACKED keys (BF16 only). The codes of the two BF16 values of word w, one per half, ordered as the values
// (ARGMIN: as their negations, so that the largest code is the smallest value): 0x7f80 + |v| for v >= 0,
// 0x7f80 - |v| for v < 0 (so -0 and +0 share 0x7f80, equal as in the float compare; -inf 0, +inf 0xff00)
// and 0xff01 for every NaN, above every number, whatever its sign and payload. Per half, with no carry
// across halves: |v| > 0x7f80 is a NaN (|v| + 0x7f sets bit 15); a NaN counts as positive; `flip` is 0x7fff
// in the negative halves, and (|v| ^ flip) - flip is |v| or -|v|, in 0x7f80 +- 0x7f80. NaNs come out in
// 0xff01..0xff7f, clamped to 0xff01.
__device__ __forceinline__ unsigned key_codes(unsigned w) {
  unsigned const mag = w & 0x7fff7fffu;
  unsigned const nan = mag + 0x007f007fu;  // bit 15 of a half: that half is a NaN
#if ARGMIN
  unsigned const neg = ~w & ~nan & 0x80008000u;  // sign bits of the halves whose -v is below zero
#else
  unsigned const neg = w & ~nan & 0x80008000u;  // sign bits of the halves whose v is below zero
#endif
  unsigned const flip = __umulhi(neg, 0xfffe0000u);  // (neg >> 15) * 0x7fff
  unsigned const codes = (mag ^ flip) + 0x7f807f80u - flip;
  return __vminu2(codes, 0xff01ff01u);
}

// Folds one loaded pack (kVec = 8 BF16 columns) of the thread's row with key low half `row_code` into its
// keys: element 2j is the low half of word j, element 2j + 1 the high half.
__device__ __forceinline__ void fold_keys(unsigned (&key)[kVec], uint4 const& v, unsigned row_code) {
  unsigned const words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int j = 0; j < kVec / 2; ++j) {
    unsigned const codes = key_codes(words[j]);
    key[2 * j] = max(key[2 * j], (codes << 16) + row_code);  // + (row_code < 2^16): one IMAD
    key[2 * j + 1] = max(key[2 * j + 1], (codes & 0xffff0000u) | row_code);
  }
}

// Merges key k of a stretch whose row i is first + i * kRowLanes into the pair (best, at). A code of 0
// (the worst value, or no row folded) is skipped: it cannot beat a pair, which starts as (worst, row 0).
__device__ __forceinline__ void merge_key(float& best, int& at, unsigned k, long long first) {
  unsigned const code = k >> 16;
  if (code == 0u) return;
  int const row = static_cast<int>(first + static_cast<long long>(0xffffu - (k & 0xffffu)) * kRowLanes);
  unsigned bits = code > 0xff00u ? 0x7fc0u : (code >= 0x7f80u ? code - 0x7f80u : 0x8000u | (0x7f80u - code));
#if ARGMIN
  if (code <= 0xff00u) bits ^= 0x8000u;  // the code was the negation's
#endif
  merge(best, at, __uint_as_float(bits << 16), row);
}

// Folds rows [r0, r1) of the thread's 8 columns starting at matrix column c (128-bit path, BF16, c < cols)
// into its pairs by keys, in stretches of at most 65536 of its rows (the low half of a key).
__device__ __forceinline__ void strip_fold_keys(float (&best)[kVec], int (&at)[kVec], T const* __restrict__ in,
                                                long long r0, long long r1, long long cols, long long c, int ty,
                                                unsigned long long policy) {
  constexpr long long kStretch = 65536;
  long long const step = static_cast<long long>(kRowLanes) * cols;  // elements between a thread's rows
#pragma unroll 1
  for (long long first = r0 + ty; first < r1; first += kStretch * kRowLanes) {
    long long const end = r1 - first < kStretch * kRowLanes ? r1 : first + kStretch * kRowLanes;
    unsigned key[kVec];
#pragma unroll
    for (int e = 0; e < kVec; ++e) key[e] = 0u;
    T const* p = in + first * cols + c;
    long long r = first;
    unsigned code = 0xffffu;  // 0xffff - i for the stretch's row i
#pragma unroll 1
    for (; r + (UNROLL - 1) * kRowLanes < end; r += UNROLL * kRowLanes, p += UNROLL * step, code -= UNROLL) {
      uint4 v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) v[u] = load16(p + u * step, policy);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) fold_keys(key, v[u], code - u);
    }
    if (UNROLL > 1 && r < end) {  // at most UNROLL - 1 rows left: one predicated round
      uint4 v[UNROLL > 1 ? UNROLL - 1 : 1];
#pragma unroll
      for (int u = 0; u < UNROLL - 1; ++u) {
        if (r + u * kRowLanes < end) v[u] = load16(p + u * step, policy);
      }
#pragma unroll
      for (int u = 0; u < UNROLL - 1; ++u) {
        if (r + u * kRowLanes < end) fold_keys(key, v[u], code - u);
      }
    }
#pragma unroll
    for (int e = 0; e < kVec; ++e) merge_key(best[e], at[e], key[e], first);
  }
}

// One element, as float (odd widths and unaligned matrices).
__device__ __forceinline__ float load1(T const* p) {
#if HINT == 1
  return kopt_strategy::to_float(__ldcs(p));
#else
  return kopt_strategy::to_float(__ldg(p));
#endif
}

// The matrix column of slot (tx, e) of the strip starting at c0.
__device__ __forceinline__ long long strip_column(long long c0, int tx, int e, bool vec) {
  return vec ? c0 + static_cast<long long>(tx) * kVec + e : c0 + tx + static_cast<long long>(e) * kLanes;
}

// Folds rows [r0, r1) (r1 <= rows, so row numbers fit an int) of this thread's columns of the strip
// starting at column c0 into its pairs.
__device__ __forceinline__ void strip_fold(float (&best)[kVec], int (&at)[kVec], T const* __restrict__ in,
                                           long long r0, long long r1, long long cols, long long c0, bool vec,
                                           int tx, int ty, unsigned long long policy) {
  long long const step = static_cast<long long>(kRowLanes) * cols;  // elements between a thread's rows
  long long r = r0 + ty;
  if (r >= r1) return;
  if (vec) {
    long long const c = strip_column(c0, tx, 0, true);
    if (c >= cols) return;  // the whole pack is past the last column (cols is a multiple of kVec)
    if constexpr (kKeys) {
      strip_fold_keys(best, at, in, r0, r1, cols, c, ty, policy);
      return;
    }
    T const* p = in + r * cols + c;
#pragma unroll 1
    for (; r + (UNROLL - 1) * kRowLanes < r1; r += UNROLL * kRowLanes, p += UNROLL * step) {
      uint4 v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) v[u] = load16(p + u * step, policy);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        int const row = static_cast<int>(r + u * kRowLanes);
#pragma unroll
        for (int e = 0; e < kVec; ++e) fold(best[e], at[e], pack_value(v[u], e), row);
      }
    }
    if (UNROLL > 1 && r < r1) {  // at most UNROLL - 1 rows left: one predicated round
      uint4 v[UNROLL > 1 ? UNROLL - 1 : 1];
#pragma unroll
      for (int u = 0; u < UNROLL - 1; ++u) {
        if (r + u * kRowLanes < r1) v[u] = load16(p + u * step, policy);
      }
#pragma unroll
      for (int u = 0; u < UNROLL - 1; ++u) {
        if (r + u * kRowLanes < r1) {
          int const row = static_cast<int>(r + u * kRowLanes);
#pragma unroll
          for (int e = 0; e < kVec; ++e) fold(best[e], at[e], pack_value(v[u], e), row);
        }
      }
    }
    return;
  }
  bool live[kVec];
#pragma unroll
  for (int e = 0; e < kVec; ++e) live[e] = strip_column(c0, tx, e, false) < cols;
  if (!live[0]) return;
  T const* p = in + r * cols + strip_column(c0, tx, 0, false);
#pragma unroll 1
  for (; r + (kScalarUnroll - 1) * kRowLanes < r1;
       r += kScalarUnroll * kRowLanes, p += kScalarUnroll * step) {
    float v[kScalarUnroll][kVec];
#pragma unroll
    for (int u = 0; u < kScalarUnroll; ++u) {
#pragma unroll
      for (int e = 0; e < kVec; ++e) v[u][e] = live[e] ? load1(p + u * step + e * kLanes) : 0.0f;
    }
#pragma unroll
    for (int u = 0; u < kScalarUnroll; ++u) {
      int const row = static_cast<int>(r + u * kRowLanes);
#pragma unroll
      for (int e = 0; e < kVec; ++e) fold(best[e], at[e], v[u][e], row);  // dead columns are never stored
    }
  }
#pragma unroll 1
  for (; r < r1; r += kRowLanes, p += step) {
    int const row = static_cast<int>(r);
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      if (live[e]) fold(best[e], at[e], load1(p + e * kLanes), row);
    }
  }
}

// Merges the pairs over the block's row lanes by a tree in shared memory; the threads ty == 0 end with the
// strip's pairs. Every thread of the block calls it; it ends with a barrier, so the scratch may be reused.
// With one row lane there is nothing to merge: no shared memory is touched and no barrier is taken.
__device__ __forceinline__ void strip_combine(float (&best)[kVec], int (&at)[kVec], StripValues& values,
                                              StripRows& rows, int tx, int ty) {
  if constexpr (kRowLanes > 1) {
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      values[ty][e * kLanes + tx] = best[e];
      rows[ty][e * kLanes + tx] = at[e];
    }
    __syncthreads();
#pragma unroll 1
    for (int stride = kRowLanes / 2; stride > 0; stride >>= 1) {
      if (ty < stride) {
#pragma unroll
        for (int e = 0; e < kVec; ++e) {
          int const slot = e * kLanes + tx;
          merge(best[e], at[e], values[ty + stride][slot], rows[ty + stride][slot]);
          values[ty][slot] = best[e];
          rows[ty][slot] = at[e];
        }
      }
      __syncthreads();
    }
  } else {
    (void)values;
    (void)rows;
    (void)tx;
    (void)ty;
  }
}

// The threads ty == 0 write their columns' rows (Index: the contract's index type, int or long long).
template <typename Index>
__device__ __forceinline__ void strip_store(Index* __restrict__ out, int const (&at)[kVec], long long cols,
                                            long long c0, bool vec, int tx, int ty) {
  if (ty != 0) return;
#pragma unroll
  for (int e = 0; e < kVec; ++e) {
    long long const c = strip_column(c0, tx, e, vec);
    if (c < cols) out[c] = static_cast<Index>(at[e]);
  }
}

__device__ __forceinline__ void merge4(float (&bv)[4], int (&br)[4], float4 v, int4 r) {
  merge(bv[0], br[0], v.x, r.x);
  merge(bv[1], br[1], v.y, r.y);
  merge(bv[2], br[2], v.z, r.z);
  merge(bv[3], br[3], v.w, r.w);
}

// Split rows (col_arg*_split_rows): block (strip, piece) of `pieces` >= 2 stores its strip's pairs at
// partial_values / partial_rows[(strip * pieces + piece) * STRIP + slot], fences and draws a ticket from
// the strip's counter with atomicInc, which wraps back to 0 when the strip's last block draws
// (self-resetting, so back-to-back launches work). That block reads the strip's pairs from L2 as float4 /
// int4 spread over all its threads (four pieces in flight each), merges them (any order: `beats` is a
// total order), then merges its thread groups by a tree in shared memory and writes the rows.
template <typename Index>
__device__ __forceinline__ void split_finish(Index* __restrict__ out, float (&best)[kVec], int (&at)[kVec],
                                             float* __restrict__ partial_values,
                                             int* __restrict__ partial_rows, unsigned int* tickets,
                                             StripValues& values, StripRows& rows, long long strip,
                                             unsigned int piece, unsigned int pieces, long long cols,
                                             long long c0, bool vec, int tx, int ty) {
  __shared__ bool last_piece;
  long long const base = strip * pieces * STRIP;
  if (ty == 0) {
#pragma unroll
    for (int e = 0; e < kVec; ++e) {
      long long const at_slot = base + static_cast<long long>(piece) * STRIP + e * kLanes + tx;
      partial_values[at_slot] = best[e];
      partial_rows[at_slot] = at[e];
    }
    __threadfence();  // the pairs are visible device-wide before the ticket is drawn
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned int const drawn = atomicInc(&tickets[strip], pieces - 1u);
    last_piece = drawn == pieces - 1u;
  }
  __syncthreads();
  if (!last_piece) return;
  __threadfence();
  constexpr int kQuads = STRIP / 4;        // float4s per piece
  constexpr int kGroups = BLOCK / kQuads;  // at least 1: STRIP <= 4 * BLOCK
  static_assert(kGroups >= 1 && BLOCK % kQuads == 0, "a piece's quads fit the block");
  static_assert(kGroups * kQuads * 4 <= kRowLanes * STRIP, "the scratch holds the groups");
  int const q = static_cast<int>(threadIdx.x) % kQuads;
  unsigned int const g = threadIdx.x / kQuads;
  float4 const* const value_quads = reinterpret_cast<float4 const*>(partial_values + base);
  int4 const* const row_quads = reinterpret_cast<int4 const*>(partial_rows + base);
  float bv[4] = {worst(), worst(), worst(), worst()};
  int br[4] = {0, 0, 0, 0};
  unsigned int p = g;
#pragma unroll 1
  for (; p + 3u * kGroups < pieces; p += 4u * kGroups) {
    float4 v[4];
    int4 r[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      v[u] = __ldcg(&value_quads[(p + u * kGroups) * kQuads + q]);
      r[u] = __ldcg(&row_quads[(p + u * kGroups) * kQuads + q]);
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) merge4(bv, br, v[u], r[u]);
  }
#pragma unroll 1
  for (; p < pieces; p += kGroups)
    merge4(bv, br, __ldcg(&value_quads[p * kQuads + q]), __ldcg(&row_quads[p * kQuads + q]));
  float4* const group_values = reinterpret_cast<float4*>(&values[0][0]);  // [kGroups][kQuads]
  int4* const group_rows = reinterpret_cast<int4*>(&rows[0][0]);
  group_values[g * kQuads + q] = make_float4(bv[0], bv[1], bv[2], bv[3]);
  group_rows[g * kQuads + q] = make_int4(br[0], br[1], br[2], br[3]);
  __syncthreads();
#pragma unroll 1
  for (unsigned int stride = kGroups / 2; stride > 0; stride >>= 1) {
    if (g < stride) {
      merge4(bv, br, group_values[(g + stride) * kQuads + q], group_rows[(g + stride) * kQuads + q]);
      group_values[g * kQuads + q] = make_float4(bv[0], bv[1], bv[2], bv[3]);
      group_rows[g * kQuads + q] = make_int4(br[0], br[1], br[2], br[3]);
    }
    __syncthreads();
  }
  if (g != 0) return;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    int const slot = 4 * q + i;  // slot e * kLanes + tx of the strip's pairs
    long long const c = strip_column(c0, slot % kLanes, slot / kLanes, vec);
    if (c < cols) out[c] = static_cast<Index>(br[i]);
  }
}
