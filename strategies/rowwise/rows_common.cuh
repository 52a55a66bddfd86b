// Row machinery shared by every row-wise strategy of this folder (spliced in by kopt:include lines,
// docs/strategies.md): thread groups per row, vector loads, reductions across a group.

namespace kopt_rows {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

constexpr int kMaxWarps = 32;

// Elements per access: 16 bytes (a float4 or eight bf16), or 8 bytes when Items is not a multiple of it.
template <typename T, int Items>
struct Access {
  static constexpr int kPack = 16 / static_cast<int>(sizeof(T));
  static constexpr int kVec = Items % kPack == 0 ? kPack : (Items % 4 == 0 ? 4 : (Items % 2 == 0 ? 2 : 1));
};

__device__ __forceinline__ float negative_infinity() {
  return -__int_as_float(0x7f800000);
}

// The threads that share one row: `size` threads (whole warps) of which this one is `lane`; `slot` is the
// row's index in the block (its shared-memory slot).
struct Group {
  int lane;
  int size;
  int warp;
  int warps;
  int slot;
};

// One slot per (row, warp) for combining the warps of a row.
template <int Rows>
struct Scratch {
  float first[Rows][kMaxWarps];
  float second[Rows][kMaxWarps];
};

// Loads the V elements of one access at row[first..first+V) into dst: one vector access when `vec`
// (then the whole access is inside the row), else element by element with `fill` past the row's end.
template <typename T, int V>
__device__ __forceinline__ void load_chunk(const T* row, int first, int C, bool vec, float (&dst)[V],
                                           float fill) {
  if (vec) {
    auto const pack = kopt_strategy::load_pack<T, V>(row + first);
#pragma unroll
    for (int e = 0; e < V; ++e) dst[e] = to_float(pack.v[e]);
  } else {
#pragma unroll
    for (int e = 0; e < V; ++e) dst[e] = first + e < C ? to_float(row[first + e]) : fill;
  }
}

template <typename T, int V>
__device__ __forceinline__ void store_chunk(T* row, int first, int C, bool vec, float const (&src)[V]) {
  if (vec) {
    kopt_strategy::Pack<T, V> pack;
#pragma unroll
    for (int e = 0; e < V; ++e) pack.v[e] = from_float<T>(src[e]);
    kopt_strategy::store_pack<T, V>(row + first, pack);
  } else {
#pragma unroll
    for (int e = 0; e < V; ++e) {
      if (first + e < C) row[first + e] = from_float<T>(src[e]);
    }
  }
}

// One thread's share of a register-resident row, Chunks accesses of V elements: as floats (Packed false),
// or as the element type's raw packs (Packed true: half the registers for BF16, each value widened where it
// is used, so a warp can hold a longer row). Padding (past the row, or a row that is not live) reads as 0.
template <typename T, int V, int Chunks, bool Packed>
struct RowCache;

template <typename T, int V, int Chunks>
struct RowCache<T, V, Chunks, false> {
  float v[Chunks][V];
  __device__ __forceinline__ void load(int j, const T* row, int c, int chunks, int C, bool vec, bool live) {
    if (live && c < chunks) {
      load_chunk<T, V>(row, c * V, C, vec, v[j], 0.0f);
    } else {
#pragma unroll
      for (int e = 0; e < V; ++e) v[j][e] = 0.0f;
    }
  }
  __device__ __forceinline__ float at(int j, int e) const { return v[j][e]; }
};

template <typename T, int V, int Chunks>
struct RowCache<T, V, Chunks, true> {
  kopt_strategy::Pack<T, V> v[Chunks];
  __device__ __forceinline__ void load(int j, const T* row, int c, int chunks, int C, bool vec, bool live) {
    if (live && c < chunks && vec) {
      v[j] = kopt_strategy::load_pack<T, V>(row + c * V);
    } else {
#pragma unroll
      for (int e = 0; e < V; ++e) {
        v[j].v[e] = live && c < chunks && c * V + e < C ? row[c * V + e] : from_float<T>(0.0f);
      }
    }
  }
  __device__ __forceinline__ float at(int j, int e) const {
    if constexpr (sizeof(T) == 2 && V % 2 == 0) {
      // A BF16 value widened by a shift or a mask of its 32-bit pair, in volatile asm so that the compiler
      // widens it again at each use instead of keeping every widened value live (twice the registers).
      unsigned const pair = reinterpret_cast<unsigned const*>(v[j].v)[e / 2];
      unsigned bits;
      if (e % 2 == 0) {
        asm volatile("shl.b32 %0, %1, 16;" : "=r"(bits) : "r"(pair));
      } else {
        asm volatile("and.b32 %0, %1, 0xffff0000;" : "=r"(bits) : "r"(pair));
      }
      return __uint_as_float(bits);
    } else {
      return to_float(v[j].v[e]);
    }
  }
};

// Sums K (1 or 2) values over the group; every thread of the group gets the same totals. With more than
// one warp per row this synchronises the block, so every thread of the block must call it (MultiWarp is
// false when the group is one warp at compile time: no barrier at all).
template <bool MultiWarp, int Rows, int K>
__device__ __forceinline__ void group_sum(float (&v)[K], Scratch<Rows>& scratch, Group const& g) {
#pragma unroll
  for (int k = 0; k < K; ++k) v[k] = kopt_strategy::warp_sum(v[k]);
  if (MultiWarp && g.warps > 1) {
    if (g.lane % 32 == 0) {
      scratch.first[g.slot][g.warp] = v[0];
      if (K > 1) scratch.second[g.slot][g.warp] = v[K - 1];
    }
    __syncthreads();
    float total[K];
#pragma unroll
    for (int k = 0; k < K; ++k) total[k] = 0.0f;
    for (int w = 0; w < g.warps; ++w) {
      total[0] += scratch.first[g.slot][w];
      if (K > 1) total[K - 1] += scratch.second[g.slot][w];
    }
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = total[k];
    __syncthreads();  // the scratch may be reused by the next reduction
  }
}

// FixedGroup threads per row (a compile-time warp or block), or blockDim.x / Rows when FixedGroup is 0.
template <int FixedGroup, int Rows>
__device__ __forceinline__ Group make_group() {
  int const size = FixedGroup > 0 ? FixedGroup : static_cast<int>(blockDim.x) / Rows;
  int const t = static_cast<int>(threadIdx.x);
  int const lane = t % size;
  return Group{lane, size, lane / 32, size / 32, t / size};
}

