// The row machinery shared by the softmax strategies of this folder (spliced into each by `// kopt:include`,
// docs/strategies.md): everything after the knob configuration, which each template sets with macros.

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

// Online softmax state: the running maximum m and the sum s of exp(x - m) over the values seen.
// Merging is safe when either maximum is -inf.
__device__ __forceinline__ void merge(float& m, float& s, float other_m, float other_s) {
  float const merged = fmaxf(m, other_m);
  float const scale = m == merged ? 1.0f : expf(m - merged);
  float const other_scale = other_m == merged ? 1.0f : expf(other_m - merged);
  s = s * scale + other_s * other_scale;
  m = merged;
}

// Adds one access worth of values (at least one of them from the row; the others are -inf).
template <int V>
__device__ __forceinline__ void accumulate_online(float& m, float& s, float const (&x)[V]) {
  float local = x[0];
#pragma unroll
  for (int e = 1; e < V; ++e) local = fmaxf(local, x[e]);
  if (local > m) {
    s *= expf(m - local);
    m = local;
  }
#pragma unroll
  for (int e = 0; e < V; ++e) s += expf(x[e] - m);
}

// Merges the (m, s) states of the group (same contract as group_sum).
template <bool MultiWarp, int Rows>
__device__ __forceinline__ void group_max_sum(float& m, float& s, Scratch<Rows>& scratch, Group const& g) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) {
    float const other_m = __shfl_xor_sync(0xffffffffu, m, offset);
    float const other_s = __shfl_xor_sync(0xffffffffu, s, offset);
    merge(m, s, other_m, other_s);
  }
  if (MultiWarp && g.warps > 1) {
    if (g.lane % 32 == 0) {
      scratch.first[g.slot][g.warp] = m;
      scratch.second[g.slot][g.warp] = s;
    }
    __syncthreads();
    m = negative_infinity();
    s = 0.0f;
    for (int w = 0; w < g.warps; ++w) merge(m, s, scratch.first[g.slot][w], scratch.second[g.slot][w]);
    __syncthreads();
  }
}

// The maximum over the group (same contract as group_sum).
template <bool MultiWarp, int Rows>
__device__ __forceinline__ float group_max(float m, Scratch<Rows>& scratch, Group const& g) {
  m = kopt_strategy::warp_max(m);
  if (MultiWarp && g.warps > 1) {
    if (g.lane % 32 == 0) scratch.first[g.slot][g.warp] = m;
    __syncthreads();
    for (int w = 0; w < g.warps; ++w) m = fmaxf(m, scratch.first[g.slot][w]);
    __syncthreads();
  }
  return m;
}

// Softmax of one row of C values: y = exp(x - max) / sum(exp(x - max)). `live` is false for a padding
// row of the block (it only takes part in the reductions). Items > 0: when the group's Items values per
// thread cover the row, it is read once into registers; otherwise it is streamed twice (statistics,
// then the output), Unroll accesses in flight per thread.
template <typename T, bool MultiWarp, int Rows, int Items, int Unroll, bool Online>
__device__ __forceinline__ void softmax_row(T* __restrict__ y, const T* __restrict__ x, int C, bool live,
                                            bool aligned, Scratch<Rows>& scratch, Group const& g) {
  constexpr int V = Access<T, (Items > 0 ? Items : 16)>::kVec;
  bool const vec = aligned && C % V == 0;
  int const chunks = (C + V - 1) / V;
  float m = negative_infinity();
  float s = 0.0f;
  if (Items > 0 && g.size * (Items > 0 ? Items : 1) >= C) {
    constexpr int kChunks = Items > 0 ? Items / V : 1;
    float cache[kChunks][V];
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
      if (live && c < chunks) {
        load_chunk<T, V>(x, c * V, C, vec, cache[j], negative_infinity());
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e) cache[j][e] = negative_infinity();
      }
    }
    if (Online) {
#pragma unroll
      for (int j = 0; j < kChunks; ++j) {
        if (live && j * g.size + g.lane < chunks) accumulate_online<V>(m, s, cache[j]);
      }
      group_max_sum<MultiWarp, Rows>(m, s, scratch, g);
    } else {
#pragma unroll
      for (int j = 0; j < kChunks; ++j) {
#pragma unroll
        for (int e = 0; e < V; ++e) m = fmaxf(m, cache[j][e]);
      }
      m = group_max<MultiWarp, Rows>(m, scratch, g);
      float sum[1] = {0.0f};
      if (live) {
#pragma unroll
        for (int j = 0; j < kChunks; ++j) {
#pragma unroll
          for (int e = 0; e < V; ++e) sum[0] += expf(cache[j][e] - m);  // padding: exp(-inf) = 0
        }
      }
      group_sum<MultiWarp, Rows, 1>(sum, scratch, g);
      s = sum[0];
    }
    if (!live) return;
    float const inverse = 1.0f / s;
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
      if (c < chunks) {
        float out[V];
#pragma unroll
        for (int e = 0; e < V; ++e) out[e] = expf(cache[j][e] - m) * inverse;
        store_chunk<T, V>(y, c * V, C, vec, out);
      }
    }
    return;
  }
  // Streaming: one online pass for the statistics, a second pass (mostly from L1/L2) for the output.
  for (int base = g.lane; live && base < chunks; base += g.size * Unroll) {
    float v[Unroll][V];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks)
        load_chunk<T, V>(x, (base + u * g.size) * V, C, vec, v[u], negative_infinity());
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) accumulate_online<V>(m, s, v[u]);
    }
  }
  group_max_sum<MultiWarp, Rows>(m, s, scratch, g);
  if (!live) return;
  float const inverse = 1.0f / s;
  for (int base = g.lane; base < chunks; base += g.size * Unroll) {
    float v[Unroll][V];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) load_chunk<T, V>(x, (base + u * g.size) * V, C, vec, v[u], 0.0f);
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) {
#pragma unroll
        for (int e = 0; e < V; ++e) v[u][e] = expf(v[u][e] - m) * inverse;
        store_chunk<T, V>(y, (base + u * g.size) * V, C, vec, v[u]);
      }
    }
  }
}

}  // namespace kopt_rows

extern "C" __global__ void __launch_bounds__(KOPT_MAX_THREADS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in, int N,
                        int C) {
  using namespace kopt_rows;
  constexpr bool kMultiWarp = KOPT_GROUP != 32;
  __shared__ Scratch<KOPT_ROWS> scratch;
  Group const g = make_group<KOPT_GROUP, KOPT_ROWS>();
  int const row = static_cast<int>(blockIdx.x) * KOPT_ROWS + g.slot;
  bool const live = row < N;
  if (!kMultiWarp && !live) return;  // no block barriers when a row is one warp
  long long const offset = static_cast<long long>(live ? row : 0) * C;
  bool const aligned = kopt_strategy::aligned_to(in, 16) && kopt_strategy::aligned_to(out, 16);
  softmax_row<{{T}}, kMultiWarp, KOPT_ROWS, KOPT_ITEMS, KOPT_UNROLL, KOPT_ONLINE != 0>(
      out + offset, in + offset, C, live, aligned, scratch, g);
}
