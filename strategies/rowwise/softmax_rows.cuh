// The row machinery shared by the softmax strategies of this folder (spliced into each by `// kopt:include`,
// docs/strategies.md): everything after the knob configuration, which each template sets with macros.
// KOPT_LOG_SOFTMAX = 1 (the log_softmax strategies, row_log_softmax family) writes the logarithm of the
// softmax instead, y = x - max - log(sum(exp(x - max))), from the same statistics.
#ifndef KOPT_LOG_SOFTMAX
#define KOPT_LOG_SOFTMAX 0
#endif

// What the output of a row needs besides each value: 1 / sum for the softmax, max + log(sum) for its log.
__device__ __forceinline__ float finish_constant(float m, float s) {
  return KOPT_LOG_SOFTMAX ? m + logf(s) : 1.0f / s;
}
// One output value from its input x, the row's max m and finish_constant(m, s).
__device__ __forceinline__ float finish_value(float x, float m, float k) {
  return KOPT_LOG_SOFTMAX ? x - k : expf(x - m) * k;
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
    float const k = finish_constant(m, s);
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
      if (c < chunks) {
        float out[V];
#pragma unroll
        for (int e = 0; e < V; ++e) out[e] = finish_value(cache[j][e], m, k);
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
  float const k = finish_constant(m, s);
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
        for (int e = 0; e < V; ++e) v[u][e] = finish_value(v[u][e], m, k);
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
