// The row arg-reductions' shared body (spliced into row_argmax_warp_per_row and row_argmin_warp_per_row by
// `// kopt:include row_arg_warp.cuh`, inside the strategy's namespace after `using T` and the knobs LANES,
// BLOCK, UNROLL). ARGMIN (0 unless the template defines it) picks the direction: 0 keeps the largest value
// (torch.argmax), 1 the smallest (torch.argmin). Either way the first column wins ties and NaN wins over
// every number (PyTorch propagates NaN in both: argmax and argmin of a row holding a NaN are the first
// NaN's column). A lane folds its elements in increasing column order with a strict comparison; lanes are
// combined by comparing (NaN first, then the value, then the column), a total order, so the shuffle order
// does not matter. With ARGMIN 0 the text the compiler sees is exactly the former row_argmax_warp_per_row.
#ifndef ARGMIN
#define ARGMIN 0
#endif

using kopt_strategy::to_float;
constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "a power-of-two part of a warp");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");

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
    for (int p = lane; p < packs; p += UNROLL * LANES) {
      P v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
        if (p + u * LANES < packs) v[u] = kopt_strategy::load_pack<T, kVec>(x + (p + u * LANES) * kVec);
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        if (p + u * LANES >= packs) continue;
#pragma unroll
        for (int e = 0; e < kVec; ++e) fold(best, to_float(v[u].v[e]), (p + u * LANES) * kVec + e);
      }
    }
  } else {
#pragma unroll 1
    for (int c = lane; c < cols; c += LANES) fold(best, to_float(x[c]), c);
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
