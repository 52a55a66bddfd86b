// The row machinery shared by the layernorm strategies of this folder (spliced into each by `// kopt:include`,
// docs/strategies.md): everything after the knob configuration, which each template sets with macros.
// LayerNorm of one row: mean = sum(x) / C, var = sum((x - mean)^2) / C (biased), y = (x - mean) /
// sqrt(var + eps) * gamma + beta. `live` is false for a padding row of the block (it only takes part in
// the reductions). Items > 0: when the group's Items values per thread cover the row, it is read once
// into registers and the variance is the exact two-pass one over the registers. Otherwise the row is
// streamed twice: one pass sums d = x - K and d^2 with the shift K = x[0] (so rows with a large mean do
// not cancel: the error scales with (mean - K)^2 / var, not mean^2 / var), then the output pass.
// With SaveStats, the row's mean and 1 / sqrt(var + eps) are also written to *stats.mean and *stats.rstd
// (what PyTorch's native_layer_norm, Apex and the Triton tutorial keep for the backward pass).
struct RowStats {
  float* mean = nullptr;
  float* rstd = nullptr;
};

template <bool SaveStats>
__device__ __forceinline__ void save_row_stats(RowStats const& stats, float mean, float rstd, Group const& g) {
  if constexpr (SaveStats) {
    if (g.lane == 0) {
      *stats.mean = mean;
      *stats.rstd = rstd;
    }
  }
}

template <typename T, bool MultiWarp, int Rows, int Items, int Unroll, bool SaveStats = false, bool Packed = false>
__device__ __forceinline__ void layernorm_row(T* __restrict__ y, const T* __restrict__ x,
                                              const T* __restrict__ gamma, const T* __restrict__ beta, int C, float eps,
                                              bool live, bool aligned, Scratch<Rows>& scratch,
                                              Group const& g, RowStats const& stats = RowStats{}) {
  constexpr int V = Access<T, (Items > 0 ? Items : 16)>::kVec;
  bool const vec = aligned && C % V == 0;
  int const chunks = (C + V - 1) / V;
  float const count = static_cast<float>(C);
  float mean = 0.0f;
  float rstd = 0.0f;
  if (Items > 0 && g.size * (Items > 0 ? Items : 1) >= C) {
    constexpr int kChunks = Items > 0 ? Items / V : 1;
    RowCache<T, V, kChunks, Packed> cache;
    float sum[1] = {0.0f};
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
      cache.load(j, x, c, chunks, C, vec, live);
#pragma unroll
      for (int e = 0; e < V; ++e) sum[0] += cache.at(j, e);
    }
    group_sum<MultiWarp, Rows, 1>(sum, scratch, g);
    mean = sum[0] / count;
    float squares[1] = {0.0f};
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
#pragma unroll
      for (int e = 0; e < V; ++e) {
        float const d = cache.at(j, e) - mean;
        if (live && c < chunks && c * V + e < C) squares[0] += d * d;  // padding values are not in the row
      }
    }
    group_sum<MultiWarp, Rows, 1>(squares, scratch, g);
    if (!live) return;
    rstd = 1.0f / sqrtf(squares[0] / count + eps);
    save_row_stats<SaveStats>(stats, mean, rstd, g);
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
      if (c < chunks) {
        float scale[V];
        float shift[V];
        load_chunk<T, V>(gamma, c * V, C, vec, scale, 0.0f);
        load_chunk<T, V>(beta, c * V, C, vec, shift, 0.0f);
        float out[V];
#pragma unroll
        for (int e = 0; e < V; ++e) out[e] = (cache.at(j, e) - mean) * rstd * scale[e] + shift[e];
        store_chunk<T, V>(y, c * V, C, vec, out);
      }
    }
    return;
  }
  // Streaming: shifted one-pass statistics, then a second pass (mostly from L1/L2) for the output.
  float const shift_k = live ? to_float(x[0]) : 0.0f;
  float sums[2] = {0.0f, 0.0f};
  for (int base = g.lane; live && base < chunks; base += g.size * Unroll) {
    float v[Unroll][V];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) {
        load_chunk<T, V>(x, (base + u * g.size) * V, C, vec, v[u], shift_k);  // padding: d = 0
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e) v[u][e] = shift_k;
      }
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
#pragma unroll
      for (int e = 0; e < V; ++e) {
        float const d = v[u][e] - shift_k;
        sums[0] += d;
        sums[1] += d * d;
      }
    }
  }
  group_sum<MultiWarp, Rows, 2>(sums, scratch, g);
  if (!live) return;
  float const mean_d = sums[0] / count;
  float const variance = fmaxf(sums[1] / count - mean_d * mean_d, 0.0f);
  mean = shift_k + mean_d;
  rstd = 1.0f / sqrtf(variance + eps);
  save_row_stats<SaveStats>(stats, mean, rstd, g);
  for (int base = g.lane; base < chunks; base += g.size * Unroll) {
    float v[Unroll][V];
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) load_chunk<T, V>(x, (base + u * g.size) * V, C, vec, v[u], 0.0f);
    }
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      if (base + u * g.size < chunks) {
        float scale[V];  // gamma and beta are small and shared by every row: L1/L2 hits
        float shift[V];
        load_chunk<T, V>(gamma, (base + u * g.size) * V, C, vec, scale, 0.0f);
        load_chunk<T, V>(beta, (base + u * g.size) * V, C, vec, shift, 0.0f);
#pragma unroll
        for (int e = 0; e < V; ++e) v[u][e] = (v[u][e] - mean) * rstd * scale[e] + shift[e];
        store_chunk<T, V>(y, (base + u * g.size) * V, C, vec, v[u]);
      }
    }
  }
}

}  // namespace kopt_rows

// KOPT_ROWS_OWN_ENTRY: a template that brings its own entry and calls layernorm_row (group_norm_rows.cu).
#ifndef KOPT_ROWS_OWN_ENTRY
// KOPT_SAVE_STATS (a manifest `defines`): the entry also takes the per-row mean and rstd outputs, last (the
// `// kopt:launch` and `// kopt:constraint` lines name the sizes by position, {{ARG4}} and {{ARG5}}).
#ifndef KOPT_SAVE_STATS
#define KOPT_SAVE_STATS 0
#endif
// KOPT_PACKED: a register-resident row is kept as raw element packs (RowCache, rows_common.cuh).
#ifndef KOPT_PACKED
#define KOPT_PACKED 0
#endif

extern "C" __global__ void __launch_bounds__(KOPT_MAX_THREADS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in,
                        const {{T}}* __restrict__ gamma, const {{T}}* __restrict__ beta,
                        int N, int C, float eps
#if KOPT_SAVE_STATS
                        , float* __restrict__ mean, float* __restrict__ rstd
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
                       kopt_strategy::aligned_to(gamma, 16) && kopt_strategy::aligned_to(beta, 16);
#if KOPT_SAVE_STATS
  long long const stat = live ? row : 0;
  layernorm_row<{{T}}, kMultiWarp, KOPT_ROWS, KOPT_ITEMS, KOPT_UNROLL, true, KOPT_PACKED != 0>(
      out + offset, in + offset, gamma, beta, C, eps, live, aligned, scratch, g, RowStats{mean + stat, rstd + stat});
#else
  layernorm_row<{{T}}, kMultiWarp, KOPT_ROWS, KOPT_ITEMS, KOPT_UNROLL, false, KOPT_PACKED != 0>(
      out + offset, in + offset, gamma, beta, C, eps, live, aligned, scratch, g);
#endif
}
#endif  // KOPT_ROWS_OWN_ENTRY
