// The normalize pass of batchnorm_train_channels (spliced into its namespace, and into row_standardize_segments's
// and group_norm_segments's, by `// kopt:include batchnorm_train_normalize.cuh`, after batchnorm_train_stats.cuh
// and the knob STREAM): blockIdx.y the channel (grid-stride beyond 65535), the channel's FP32 constants
// (K, mean - K, scale, shift) loaded once per block, out = ((x - K) - (mean - K)) * scale + shift with one FMA,
// the walk of the statistics pass over the channel's N planes but first to last (its first reads hit what the
// statistics pass left in L2), 128-bit loads and stores with the loads of a step all issued before the first
// store; with STREAM, x is read with the evict-first hint and out stored streaming. H*W not a multiple of the
// pack, or a misaligned buffer, goes element by element along the same walk.

__device__ __forceinline__ Vec load_x(const T* p) {
#if STREAM
  uint4 const r = __ldcs(reinterpret_cast<uint4 const*>(p));
  return *reinterpret_cast<Vec const*>(&r);
#else
  return kopt_strategy::load_pack<T, kVec>(p);
#endif
}

__device__ __forceinline__ void store_out(T* p, Vec const& v) {
#if STREAM
  __stcs(reinterpret_cast<uint4*>(p), *reinterpret_cast<uint4 const*>(&v));
#else
  kopt_strategy::store_pack<T, kVec>(p, v);
#endif
}

__device__ __forceinline__ float normalized(float v, float4 const& k) {
  return fmaf((v - k.x) - k.y, k.z, k.w);
}

__global__ void __launch_bounds__(BLOCK)
    normalize_kernel(T* __restrict__ out, const T* __restrict__ x, int N, int C, long long hw,
                     float4 const* __restrict__ constants) {
  bool const vec = hw % kVec == 0 && kopt_strategy::aligned_to(x, sizeof(Vec)) &&
                   kopt_strategy::aligned_to(out, sizeof(Vec));
  int const width = vec ? kVec : 1;
  long long const stride = static_cast<long long>(gridDim.x) * BLOCK;
  long long const first = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  for (int c = static_cast<int>(blockIdx.y); c < C; c += static_cast<int>(gridDim.y)) {
    float4 const k = constants[c];  // written by pass 1 (an earlier kernel)
    Walk const w = make_walk(N, C, hw, width, stride, +1);
    Cursor p = start(w, first, N, C, c, hw, width, +1);
    if (vec) {
      while (p.q < w.positions) {
        Vec v[UNROLL];
        long long at[UNROLL];
        bool ok[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
          ok[u] = p.q < w.positions;
          at[u] = p.at;
          if (ok[u]) v[u] = load_x(x + p.at);
          advance(p, w);
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
          if (!ok[u]) continue;
#pragma unroll
          for (int e = 0; e < kVec; ++e) v[u].v[e] = from_float<T>(normalized(to_float(v[u].v[e]), k));
          store_out(out + at[u], v[u]);
        }
      }
    } else {
      while (p.q < w.positions) {
        float v[UNROLL];
        long long at[UNROLL];
        bool ok[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; ++u) {
          ok[u] = p.q < w.positions;
          at[u] = p.at;
          if (ok[u]) v[u] = to_float(x[p.at]);
          advance(p, w);
        }
#pragma unroll
        for (int u = 0; u < UNROLL; ++u)
          if (ok[u]) out[at[u]] = from_float<T>(normalized(v[u], k));
      }
    }
  }
}
