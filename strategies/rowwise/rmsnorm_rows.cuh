// The row machinery shared by the rmsnorm strategies of this folder (spliced into each by `// kopt:include`,
// docs/strategies.md): everything after the knob configuration, which each template sets with macros.
// RMSNorm of one row: y = x / sqrt(sum(x^2) / C + eps) * w. `live` is false for a padding row of the
// block (it only takes part in the reduction). Items > 0: when the group's Items values per thread cover
// the row, it is read once into registers; otherwise it is streamed twice (sum of squares, then the
// output), Unroll accesses in flight per thread. With SaveRstd, the row's 1 / sqrt(sum(x^2) / C + eps) is
// also written to *rstd (what fused RMSNorm kernels keep for the backward pass).
template <bool SaveRstd>
__device__ __forceinline__ void save_row_rstd(float* rstd, float inverse_rms, Group const& g) {
  if constexpr (SaveRstd) {
    if (g.lane == 0) *rstd = inverse_rms;
  }
}

template <typename T, bool MultiWarp, int Rows, int Items, int Unroll, bool SaveRstd = false, bool Packed = false>
__device__ __forceinline__ void rmsnorm_row(T* __restrict__ y, const T* __restrict__ x,
                                            const T* __restrict__ w, int C, float eps, bool live, bool aligned,
                                            Scratch<Rows>& scratch, Group const& g, float* rstd = nullptr) {
  constexpr int V = Access<T, (Items > 0 ? Items : 16)>::kVec;
  bool const vec = aligned && C % V == 0;
  int const chunks = (C + V - 1) / V;
  float squares[1] = {0.0f};
  if (Items > 0 && g.size * (Items > 0 ? Items : 1) >= C) {
    constexpr int kChunks = Items > 0 ? Items / V : 1;
    RowCache<T, V, kChunks, Packed> cache;
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
      cache.load(j, x, c, chunks, C, vec, live);
#pragma unroll
      for (int e = 0; e < V; ++e) squares[0] += cache.at(j, e) * cache.at(j, e);
    }
    group_sum<MultiWarp, Rows, 1>(squares, scratch, g);
    if (!live) return;
    float const inverse_rms = 1.0f / sqrtf(squares[0] / static_cast<float>(C) + eps);
    save_row_rstd<SaveRstd>(rstd, inverse_rms, g);
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
      if (c < chunks) {
        float weight[V];
        load_chunk<T, V>(w, c * V, C, vec, weight, 0.0f);
        float out[V];
#pragma unroll
        for (int e = 0; e < V; ++e) out[e] = cache.at(j, e) * inverse_rms * weight[e];
        store_chunk<T, V>(y, c * V, C, vec, out);
      }
    }
    return;
  }
  // Streaming: the sum of squares, then a second pass (mostly from L1/L2) for the output.
  for (int base = g.lane; live && base < chunks; base += g.size * Unroll) {
    float v[Unroll][V];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) {
        load_chunk<T, V>(x, (base + u * g.size) * V, C, vec, v[u], 0.0f);
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e) v[u][e] = 0.0f;
      }
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
#pragma unroll
      for (int e = 0; e < V; ++e) squares[0] += v[u][e] * v[u][e];
    }
  }
  group_sum<MultiWarp, Rows, 1>(squares, scratch, g);
  if (!live) return;
  float const inverse_rms = 1.0f / sqrtf(squares[0] / static_cast<float>(C) + eps);
  save_row_rstd<SaveRstd>(rstd, inverse_rms, g);
  for (int base = g.lane; base < chunks; base += g.size * Unroll) {
    float v[Unroll][V];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) load_chunk<T, V>(x, (base + u * g.size) * V, C, vec, v[u], 0.0f);
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) {
        float weight[V];  // the weight row is small and shared by every row: an L1/L2 hit
        load_chunk<T, V>(w, (base + u * g.size) * V, C, vec, weight, 0.0f);
#pragma unroll
        for (int e = 0; e < V; ++e) v[u][e] = v[u][e] * inverse_rms * weight[e];
        store_chunk<T, V>(y, (base + u * g.size) * V, C, vec, v[u]);
      }
    }
  }
}

}  // namespace kopt_rows

// KOPT_SAVE_STATS (a manifest `defines`): the entry also takes the per-row rstd output, last (the
// `// kopt:launch` and `// kopt:constraint` lines name the sizes by position).
#ifndef KOPT_SAVE_STATS
#define KOPT_SAVE_STATS 0
#endif
// KOPT_PACKED: a register-resident row is kept as raw element packs (RowCache, rows_common.cuh).
#ifndef KOPT_PACKED
#define KOPT_PACKED 0
#endif

extern "C" __global__ void __launch_bounds__(KOPT_MAX_THREADS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in,
                        const {{T}}* __restrict__ weight, int N, int C, float eps
#if KOPT_SAVE_STATS
                        , float* __restrict__ rstd
#endif
                        ) {
  using namespace kopt_rows;
  constexpr bool kMultiWarp = KOPT_GROUP != 32;
  __shared__ Scratch<KOPT_ROWS> scratch;
  Group const g = make_group<KOPT_GROUP, KOPT_ROWS>();
  int const row = static_cast<int>(blockIdx.x) * KOPT_ROWS + g.slot;
  bool const live = row < N;
  if (!kMultiWarp && !live) return;  // no block barriers when a row is one warp
  long long const offset = static_cast<long long>(live ? row : 0) * C;
  bool const aligned = kopt_strategy::aligned_to(in, 16) && kopt_strategy::aligned_to(out, 16) &&
                       kopt_strategy::aligned_to(weight, 16);
#if KOPT_SAVE_STATS
  rmsnorm_row<{{T}}, kMultiWarp, KOPT_ROWS, KOPT_ITEMS, KOPT_UNROLL, true, KOPT_PACKED != 0>(
      out + offset, in + offset, weight, C, eps, live, aligned, scratch, g, rstd + (live ? row : 0));
#else
  rmsnorm_row<{{T}}, kMultiWarp, KOPT_ROWS, KOPT_ITEMS, KOPT_UNROLL, false, KOPT_PACKED != 0>(
      out + offset, in + offset, weight, C, eps, live, aligned, scratch, g);
#endif
}
