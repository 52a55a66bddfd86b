// Strategy batchnorm_flat, batchnorm family (kernel mode): batch normalisation with given statistics
// (inference), NCHW: out = (x - mean[c]) * gamma[c] / sqrt(var[c] + eps) + beta[c], over the tensor as
// one flat array: for planes too small to give a block work of its own (7 x 7, 14 x 14 feature maps), where
// batchnorm_planes would launch mostly idle threads. A grid of at most GRID blocks per SM walks the
// 128-bit packs grid-stride, UNROLL packs in flight per thread (all loaded before any is stored). A pack
// inside one plane takes its channel's constants once (one 64-bit division for the pack); a pack that
// straddles two planes takes them per element. The small per-channel arrays stay in L1/L2. Unaligned
// buffers and the last partial pack go element by element, so any shape and offset are correct.
//
// Knobs: BLOCK threads per block; UNROLL packs in flight per thread; GRID blocks per SM of a 132-SM H200.
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4]
// kopt:knob GRID = [1, 2, 4, 8, 16] resources=none
// Resident blocks of BLOCK threads: at most 2048 threads per SM.
// kopt:constraint BLOCK * GRID <= 2048
// kopt:launch grid=(max(1, min(ceil_div({{ARG7}} * {{ARG8}} * {{ARG9}} * {{ARG10}}, BLOCK * UNROLL * 4), 132 * GRID))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 2
#endif
#ifndef GRID
#define GRID 4
#endif

namespace batchnorm_flat {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

template <typename T>
struct Channel {
  float mean;
  float scale;
  float shift;
};

template <typename T>
__device__ __forceinline__ Channel<T> channel_of(long long i, long long plane_elems, int C, const T* mean,
                                                 const T* var, const T* gamma, const T* beta, float eps) {
  int const c = static_cast<int>((i / plane_elems) % C);
  return {to_float(mean[c]), to_float(gamma[c]) * rsqrtf(to_float(var[c]) + eps), to_float(beta[c])};
}

template <typename T>
__device__ __forceinline__ void run(T* __restrict__ out, const T* __restrict__ x, const T* __restrict__ mean,
                                    const T* __restrict__ var, const T* __restrict__ gamma,
                                    const T* __restrict__ beta, float eps, int N, int C, int H, int W) {
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  using P = kopt_strategy::Pack<T, kVec>;
  long long const plane_elems = static_cast<long long>(H) * W;
  long long const total = static_cast<long long>(N) * C * plane_elems;
  if (plane_elems <= 0 || total <= 0) return;
  long long const threads = static_cast<long long>(gridDim.x) * BLOCK;
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  bool const aligned = kopt_strategy::aligned_to(x, sizeof(P)) && kopt_strategy::aligned_to(out, sizeof(P));
  long long const packs = aligned ? total / kVec : 0;
  for (long long p = tid; p < packs; p += threads * UNROLL) {
    P v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
      if (p + u * threads < packs) v[u] = kopt_strategy::load_pack<T, kVec>(x + (p + u * threads) * kVec);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      long long const at = (p + u * threads) * kVec;
      if (p + u * threads >= packs) continue;
      bool const one_plane = at / plane_elems == (at + kVec - 1) / plane_elems;
      Channel<T> const ch = channel_of(at, plane_elems, C, mean, var, gamma, beta, eps);
#pragma unroll
      for (int e = 0; e < kVec; ++e) {
        Channel<T> const ce = one_plane ? ch : channel_of(at + e, plane_elems, C, mean, var, gamma, beta, eps);
        v[u].v[e] = from_float<T>(fmaf(to_float(v[u].v[e]) - ce.mean, ce.scale, ce.shift));
      }
      kopt_strategy::store_pack<T, kVec>(out + at, v[u]);
    }
  }
  // The elements after the last whole pack (all of them when the buffers are not aligned).
  for (long long i = packs * kVec + tid; i < total; i += threads) {
    Channel<T> const ch = channel_of(i, plane_elems, C, mean, var, gamma, beta, eps);
    out[i] = from_float<T>(fmaf(to_float(x[i]) - ch.mean, ch.scale, ch.shift));
  }
}

}  // namespace batchnorm_flat

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* out, const {{T}}* x, const {{T}}* mean, const {{T}}* var, const {{T}}* gamma,
              const {{T}}* beta, float eps, int N, int C, int H, int W) {
  batchnorm_flat::run<{{T}}>(out, x, mean, var, gamma, beta, eps, N, C, H, W);
}
