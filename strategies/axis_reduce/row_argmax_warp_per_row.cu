// Strategy row_argmax_warp_per_row, row_argmax family (kernel mode): out[r] = the column of the largest
// in[r*cols + c] over c < cols, a row-major rows x cols matrix (greedy decoding over a vocabulary,
// torch.argmax(dim=-1) with 32-bit indices): the first such column on ties, NaN counting as the largest,
// as PyTorch. Each row belongs to a group of LANES threads of one warp, BLOCK / LANES rows per block, no
// shared memory and no barrier: when the row starts on a 16-byte boundary and cols is a multiple of the
// pack width, lanes read 128-bit packs p = lane, lane + LANES, ... (UNROLL independent loads in flight);
// otherwise element by element, still coalesced. A lane's candidates come in increasing column order, so
// a strict comparison keeps the first; lanes are combined by warp shuffles that compare the value, then
// the column. Every element is read once.
//
// Knobs: LANES threads per row; BLOCK threads per block; UNROLL 128-bit loads in flight per thread.
// kopt:knob LANES = [8, 16, 32]
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:launch grid=(max(1, ceil_div({{ARG2}}, BLOCK / LANES))) block=(BLOCK) kernel={{ENTRY}}

#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef LANES
#define LANES 32
#endif
#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif

namespace row_argmax_warp_per_row {

using T = {{T}};
using kopt_strategy::to_float;
constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
static_assert(LANES >= 1 && LANES <= 32 && (LANES & (LANES - 1)) == 0, "a power-of-two part of a warp");
static_assert(BLOCK % 32 == 0 && BLOCK <= 1024, "whole warps");

struct Best {
  float value;
  int column;
};

// Whether candidate b beats a: the larger value, NaN above everything; on equal values (or two NaNs) the
// smaller column.
__device__ __forceinline__ bool beats(Best b, Best a) {
  bool const a_nan = a.value != a.value;
  bool const b_nan = b.value != b.value;
  if (a_nan || b_nan) return b_nan && (!a_nan || b.column < a.column);
  return b.value > a.value || (b.value == a.value && b.column < a.column);
}

// Folds element `column` with value v into a lane's best (columns arrive in increasing order: a strict
// comparison keeps the first of equal values).
__device__ __forceinline__ void fold(Best& best, float v, int column) {
  bool const take = (v != v) ? best.value == best.value : v > best.value;
  if (take) best = Best{v, column};
}

__device__ __forceinline__ Best row_best(T const* __restrict__ x, int cols, int lane) {
  Best best{-INFINITY, 0x7fffffff};
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
  if (best.column == 0x7fffffff) best.column = 0;  // an empty share, or a row of -inf only: column 0 wins ties
  return best;
}

__device__ __forceinline__ Best group_best(Best b) {
#pragma unroll
  for (int offset = LANES / 2; offset > 0; offset >>= 1) {
    Best const other{__shfl_xor_sync(0xffffffffu, b.value, offset), __shfl_xor_sync(0xffffffffu, b.column, offset)};
    if (beats(other, b)) b = other;
  }
  return b;
}

}  // namespace row_argmax_warp_per_row

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}(int* __restrict__ out, const {{T}}* __restrict__ in, int rows, int cols) {
  using namespace row_argmax_warp_per_row;
  constexpr int kRowsPerBlock = BLOCK / LANES;
  int const lane = static_cast<int>(threadIdx.x) % LANES;
  long long const block_row = static_cast<long long>(blockIdx.x) * kRowsPerBlock;
  long long const warp_row = block_row + (static_cast<int>(threadIdx.x) & ~31) / LANES;
  if (warp_row >= rows) return;  // a whole warp past the end; the others shuffle with all 32 lanes
  long long const row = block_row + static_cast<int>(threadIdx.x) / LANES;
  bool const live = row < rows;
  Best b{-INFINITY, 0};
  if (live && cols > 0) b = row_best(in + row * cols, cols, lane);
  b = group_best(b);
  if (live && lane == 0) out[row] = b.column;
}
