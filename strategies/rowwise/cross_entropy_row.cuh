// One row's cross-entropy, shared by the cross_entropy and cross_entropy_mean strategies of this folder (spliced
// into each by `// kopt:include`, after rows_common.cuh and online_softmax_rows.cuh; it closes their namespace).
// Cross-entropy of one row of logits: loss = log(sum(exp(x - max))) + max - x[label], one online pass
// over the row with Unroll accesses in flight per thread; a label outside [0, C) gives NaN. `live` is
// false for a padding row of the block (it only takes part in the reduction).
template <typename T, bool MultiWarp, int Rows, int Unroll>
__device__ __forceinline__ void cross_entropy_row(float* __restrict__ loss, const T* __restrict__ x,
                                                  int label, int C, bool live, bool aligned,
                                                  Scratch<Rows>& scratch, Group const& g) {
  constexpr int V = Access<T, 16>::kVec;
  bool const vec = aligned && C % V == 0;
  int const chunks = (C + V - 1) / V;
  float m = negative_infinity();
  float s = 0.0f;
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
  if (!live || g.lane != 0) return;
  if (label < 0 || label >= C) {
    *loss = __int_as_float(0x7fc00000);  // quiet NaN, as the reference
    return;
  }
  *loss = logf(s) + m - to_float(x[label]);
}

// A row's label as the row machinery takes it: an int32 label as it is, an int64 one (PyTorch's targets)
// narrowed only when it is in [0, C), else -1 (NaN, as any label outside the classes).
__device__ __forceinline__ int row_label(int label, int /*C*/) { return label; }
__device__ __forceinline__ int row_label(long long label, int C) {
  return label >= 0 && label < C ? static_cast<int>(label) : -1;
}

}  // namespace kopt_rows
