// The row arg-reductions' shared body (spliced into row_argmax_warp_per_row and row_argmin_warp_per_row by
// `// kopt:include row_arg_warp.cuh`, inside the strategy's namespace after `using T` and the knobs LANES,
// BLOCK, UNROLL, WARPS, PACKED). ARGMIN (0 unless the template defines it) picks the direction: 0 keeps the
// largest value (torch.argmax), 1 the smallest (torch.argmin). Either way the first column wins ties and
// NaN wins over every number (PyTorch propagates NaN in both: argmax and argmin of a row holding a NaN are
// the first NaN's column). A row belongs to kRowLanes = LANES * WARPS threads (WARPS > 1: whole warps of
// one block, LANES 32); thread i of a row takes packs (or elements) i, i + kRowLanes, ..., so its own
// candidates come in increasing column order.
//
// Element fold (FP32, PACKED 0, and rows that are not whole aligned packs): a thread folds its elements
// with a strict comparison into a (value, column) pair; pairs are combined by comparing (NaN first, then
// the value, then the column), a total order, so the shuffle order does not matter.
//
// PACKED 1 (BF16's 128-bit path): the element fold costs FP32's per-element work (a widening, a NaN test,
// a compare, two selects) for half the bytes, which made the BF16 rows ALU-bound at 66 % of DRAM (H200).
// Instead a thread reduces each round of UNROLL loaded packs (8 * UNROLL values) to their best value with
// NaN-propagating bf16x2 max (ARGMIN: min) instructions, HMNMX2/VHMNMX.BF16_V2.NAN (three-input), and
// keeps (the best round value, the first pack of the first round that reached it): one float compare per
// round. At UNROLL 4 the loop is 28 SASS instructions per round of 32 values, 4 of them loads, where the
// element fold's is about 390 (sm_90). Strict, so a later round with an equal best (or a
// second NaN) does not replace the first. Then the row's best value m is found (shuffles; WARPS > 1: and
// shared memory), and each thread whose best equals m (both NaN, or float-equal: -0 == +0 as in the
// element fold) reads its recorded round again (UNROLL packs, 16 * UNROLL bytes, from L2) and takes the
// first element equal to m: its first column holding m, since no earlier round of it reached m. The row's
// answer is the smallest such column (the element fold's combine). A thread's pair starts as (the worst
// value, its first pack), so a row of -inf (ARGMIN: +inf) only finds its column 0. The hot loop is the
// same instructions whatever the data; only which round is read again depends on it.
#ifndef ARGMIN
#define ARGMIN 0
#endif

using kopt_strategy::to_float;
constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "a power-of-two part of a warp");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");
static_assert(WARPS >= 1 && (WARPS & (WARPS - 1)) == 0 && (WARPS == 1 || LANES == 32) &&
                  BLOCK % (32 * WARPS) == 0,
              "a row is a power-of-two part of a warp, or a power-of-two number of whole warps of the block");
constexpr int kRowLanes = LANES * WARPS;  // threads of one row
// Whether the 128-bit path reduces BF16 pairs and locates the best afterwards (PACKED; see the header).
constexpr bool kPairs = PACKED && sizeof(T) == 2;

struct Best {
  float value;
  int column;
};

// Whether candidate b beats a: the larger (ARGMIN: smaller) value, NaN above everything; on equal values
// (or two NaNs) the smaller column.
__device__ __forceinline__ bool beats(Best b, Best a) {
  bool const a_nan = a.value != a.value;
  bool const b_nan = b.value != b.value;
  if (a_nan || b_nan) return b_nan && (!a_nan || b.column < a.column);
#if ARGMIN
  return b.value < a.value || (b.value == a.value && b.column < a.column);
#else
  return b.value > a.value || (b.value == a.value && b.column < a.column);
#endif
}

// Folds element `column` with value v into a lane's best (columns arrive in increasing order: a strict
// comparison keeps the first of equal values).
__device__ __forceinline__ void fold(Best& best, float v, int column) {
#if ARGMIN
  bool const take = (v != v) ? best.value == best.value : v < best.value;
#else
  bool const take = (v != v) ? best.value == best.value : v > best.value;
#endif
  if (take) best = Best{v, column};
}

__device__ __forceinline__ Best row_best(T const* __restrict__ x, int cols, int lane) {
#if ARGMIN
  Best best{INFINITY, 0x7fffffff};
#else
  Best best{-INFINITY, 0x7fffffff};
#endif
  bool const packed = cols % kVec == 0 && kopt_strategy::aligned_to(x, 16u);
  if (packed) {
    int const packs = cols / kVec;
    using P = kopt_strategy::Pack<T, kVec>;
#pragma unroll 1
    for (int p = lane; p < packs; p += UNROLL * kRowLanes) {
      P v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
        if (p + u * kRowLanes < packs) v[u] = kopt_strategy::load_pack<T, kVec>(x + (p + u * kRowLanes) * kVec);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        if (p + u * kRowLanes >= packs) continue;
#pragma unroll
        for (int e = 0; e < kVec; ++e) fold(best, to_float(v[u].v[e]), (p + u * kRowLanes) * kVec + e);
      }
    }
  } else {
#pragma unroll 1
    for (int c = lane; c < cols; c += kRowLanes) fold(best, to_float(x[c]), c);
  }
  if (best.column == 0x7fffffff)
    best.column = 0;  // an empty share, or a row of -inf (ARGMIN: +inf) only: column 0 wins ties
  return best;
}

__device__ __forceinline__ Best group_best(Best b) {
#pragma unroll
  for (int offset = LANES / 2; offset > 0; offset >>= 1) {
    Best const other{__shfl_xor_sync(0xffffffffu, b.value, offset),
                     __shfl_xor_sync(0xffffffffu, b.column, offset)};
    if (beats(other, b)) b = other;
  }
  return b;
}

// PACKED (BF16 only). Two BF16 values of a 32-bit word as a pair (no instruction).
__device__ __forceinline__ __nv_bfloat162 as_pair(unsigned w) {
  __nv_bfloat162 p;
  memcpy(&p, &w, sizeof p);
  return p;
}

// The better of each half of a and b: the larger (ARGMIN: smaller), NaN if either is a NaN.
__device__ __forceinline__ __nv_bfloat162 pair_best(__nv_bfloat162 a, __nv_bfloat162 b) {
#if ARGMIN
  return __hmin2_nan(a, b);
#else
  return __hmax2_nan(a, b);
#endif
}

// The best of a round's 8 * UNROLL values (a NaN if any is one), as a float.
__device__ __forceinline__ float round_best(uint4 const (&v)[UNROLL]) {
  __nv_bfloat162 acc[4] = {as_pair(v[0].x), as_pair(v[0].y), as_pair(v[0].z), as_pair(v[0].w)};
#pragma unroll
  for (int u = 1; u < UNROLL; ++u) {
    acc[0] = pair_best(acc[0], as_pair(v[u].x));
    acc[1] = pair_best(acc[1], as_pair(v[u].y));
    acc[2] = pair_best(acc[2], as_pair(v[u].z));
    acc[3] = pair_best(acc[3], as_pair(v[u].w));
  }
  __nv_bfloat162 const m = pair_best(pair_best(acc[0], acc[1]), pair_best(acc[2], acc[3]));
  return __low2float(pair_best(m, __lowhigh2highlow(m)));
}

// One 128-bit pack of the row, as four words.
__device__ __forceinline__ uint4 load_words(T const* __restrict__ p) {
  return *reinterpret_cast<uint4 const*>(p);
}

// Takes a round's best value m (its first pack p) when it beats the thread's: strictly better, or the first
// NaN (fold's rule, written so that it compiles to two compares and a predicate combination).
__device__ __forceinline__ void take_round(Best& best, float m, int p) {
#if ARGMIN
  bool const take = (m < best.value) | ((m != m) & (best.value == best.value));
#else
  bool const take = (m > best.value) | ((m != m) & (best.value == best.value));
#endif
  if (take) best = Best{m, p};
}

// A thread's pass over packs lane, lane + kRowLanes, ... < packs of row x (BF16, x 16-byte aligned): its
// best value and the first pack of the first round that reached it (a NaN: the first round holding one).
// Starts as (the worst value, its first pack). A thread with no pack keeps a first pack >= packs.
__device__ __forceinline__ Best round_fold(T const* __restrict__ x, int packs, int lane) {
#if ARGMIN
  Best best{INFINITY, lane};
  unsigned const worst = 0x7f807f80u;  // +inf, +inf: fills the missing packs of the last round
#else
  Best best{-INFINITY, lane};
  unsigned const worst = 0xff80ff80u;  // -inf, -inf
#endif
  T const* at = x + static_cast<long long>(lane) * kVec;
  int p = lane;
#pragma unroll 1
  for (; p + (UNROLL - 1) * kRowLanes < packs; p += UNROLL * kRowLanes, at += UNROLL * kRowLanes * kVec) {
    uint4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = load_words(at + u * kRowLanes * kVec);
    take_round(best, round_best(v), p);
  }
  if (UNROLL > 1 && p < packs) {  // the last round: fewer than UNROLL packs
    uint4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
      v[u] = p + u * kRowLanes < packs ? load_words(at + u * kRowLanes * kVec) : make_uint4(worst, worst, worst, worst);
    take_round(best, round_best(v), p);
  }
  return best;
}

// The best of the group's (LANES lanes') values: NaN first, then the larger (ARGMIN: smaller).
__device__ __forceinline__ float better(float a, float b) {
#if ARGMIN
  return (b != b || b < a) ? b : a;
#else
  return (b != b || b > a) ? b : a;
#endif
}
__device__ __forceinline__ float group_value(float v) {
#pragma unroll
  for (int offset = LANES / 2; offset > 0; offset >>= 1) v = better(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// The thread's first column holding the row's best value m, given its pass `mine` (value, first pack of
// the round that reached it): (m, that column), or (m, 0x7fffffff) when its best is not m.
__device__ __forceinline__ Best locate(T const* __restrict__ x, int packs, Best mine, float m) {
  bool const m_nan = m != m;
  Best found{m, 0x7fffffff};
  if (mine.value == m || (m_nan && mine.value != mine.value)) {
#pragma unroll
    for (int u = UNROLL - 1; u >= 0; --u) {  // backwards, each match overwriting: the first one stays
      int const q = mine.column + u * kRowLanes;
      if (q < packs) {
        uint4 const w = load_words(x + q * kVec);
        unsigned const words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
        for (int e = kVec - 1; e >= 0; --e) {
          float const v = __uint_as_float(e % 2 ? words[e / 2] & 0xffff0000u : words[e / 2] << 16);
          if (v == m || (m_nan && v != v)) found.column = q * kVec + e;
        }
      }
    }
  }
  return found;
}
