// The online-softmax state shared by the softmax and cross-entropy strategies of this folder (spliced in
// by kopt:include lines, docs/strategies.md).
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

