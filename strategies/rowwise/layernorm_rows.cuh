// The row machinery shared by the layernorm strategies of this folder (spliced into each by `// kopt:include`,
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

// LayerNorm of one row: mean = sum(x) / C, var = sum((x - mean)^2) / C (biased), y = (x - mean) /
// sqrt(var + 1e-5) * gamma + beta. `live` is false for a padding row of the block (it only takes part in
// the reductions). Items > 0: when the group's Items values per thread cover the row, it is read once
// into registers and the variance is the exact two-pass one over the registers. Otherwise the row is
// streamed twice: one pass sums d = x - K and d^2 with the shift K = x[0] (so rows with a large mean do
// not cancel: the error scales with (mean - K)^2 / var, not mean^2 / var), then the output pass.
template <typename T, bool MultiWarp, int Rows, int Items, int Unroll>
__device__ __forceinline__ void layernorm_row(T* __restrict__ y, const T* __restrict__ x,
                                              const T* __restrict__ gamma, const T* __restrict__ beta, int C,
                                              bool live, bool aligned, Scratch<Rows>& scratch,
                                              Group const& g) {
  constexpr int V = Access<T, (Items > 0 ? Items : 16)>::kVec;
  bool const vec = aligned && C % V == 0;
  int const chunks = (C + V - 1) / V;
  float const count = static_cast<float>(C);
  float mean = 0.0f;
  float rstd = 0.0f;
  if (Items > 0 && g.size * (Items > 0 ? Items : 1) >= C) {
    constexpr int kChunks = Items > 0 ? Items / V : 1;
    float cache[kChunks][V];
    float sum[1] = {0.0f};
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
      if (live && c < chunks) {
        load_chunk<T, V>(x, c * V, C, vec, cache[j], 0.0f);
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e) cache[j][e] = 0.0f;
      }
#pragma unroll
      for (int e = 0; e < V; ++e) sum[0] += cache[j][e];
    }
    group_sum<MultiWarp, Rows, 1>(sum, scratch, g);
    mean = sum[0] / count;
    float squares[1] = {0.0f};
#pragma unroll
    for (int j = 0; j < kChunks; ++j) {
      int const c = j * g.size + g.lane;
#pragma unroll
      for (int e = 0; e < V; ++e) {
        float const d = cache[j][e] - mean;
        if (live && c < chunks && c * V + e < C) squares[0] += d * d;  // padding values are not in the row
      }
    }
    group_sum<MultiWarp, Rows, 1>(squares, scratch, g);
    if (!live) return;
    rstd = 1.0f / sqrtf(squares[0] / count + 1e-5f);
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
        for (int e = 0; e < V; ++e) out[e] = (cache[j][e] - mean) * rstd * scale[e] + shift[e];
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
  rstd = 1.0f / sqrtf(variance + 1e-5f);
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

extern "C" __global__ void __launch_bounds__(KOPT_MAX_THREADS)
    {{ENTRY}}({{T}}* __restrict__ out, const {{T}}* __restrict__ in,
                        const {{T}}* __restrict__ gamma, const {{T}}* __restrict__ beta,
                        int N, int C) {
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
  layernorm_row<{{T}}, kMultiWarp, KOPT_ROWS, KOPT_ITEMS, KOPT_UNROLL>(
      out + offset, in + offset, gamma, beta, C, live, aligned, scratch, g);
}
