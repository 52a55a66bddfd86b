// Strategy reverse_packs, reverse family (kernel mode): out[i] = in[n - 1 - i] for 0 <= i < n. When n is a
// multiple of the 128-bit pack width (and both buffers are 16-byte aligned), output pack p is input pack
// (n / VEC - 1 - p) with its elements in reverse order: one 128-bit load and one 128-bit store, coalesced on
// both sides (a warp reads 512 contiguous bytes and writes 512 contiguous bytes), UNROLL packs in flight per
// thread (all loaded before any is stored). Otherwise every input pack straddles two output packs, and the
// elements go one by one (still coalesced: consecutive threads read consecutive elements backwards). A
// grid of at most GRID blocks per SM walks the work grid-stride.
//
// Knobs: BLOCK threads per block; UNROLL packs in flight per thread; GRID blocks per SM of a 132-SM H200
// (0: one pass, as many blocks as the work needs).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [0, 2, 4, 8] resources=none
// Resident blocks of BLOCK threads: at most 2048 threads per SM.
// kopt:constraint GRID == 0 || BLOCK * GRID <= 2048
// kopt:launch grid=(GRID == 0 ? max(1, ceil_div({{ARG2}}, BLOCK * UNROLL * 4)) : max(1, min(ceil_div({{ARG2}}, BLOCK * UNROLL * 4), 132 * GRID))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 0
#endif

namespace reverse_packs {

template <typename T>
__device__ __forceinline__ void run(T* __restrict__ out, const T* __restrict__ in, int n) {
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  using P = kopt_strategy::Pack<T, kVec>;
  long long const count = n < 0 ? 0 : n;
  long long const threads = static_cast<long long>(gridDim.x) * BLOCK;
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  bool const packed = count % kVec == 0 && kopt_strategy::aligned_to(out, sizeof(P)) &&
                      kopt_strategy::aligned_to(in, sizeof(P));
  if (packed) {
    long long const packs = count / kVec;
    for (long long p = tid; p < packs; p += threads * UNROLL) {
      P v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        long long const q = p + u * threads;
        if (q < packs) v[u] = kopt_strategy::load_pack<T, kVec>(in + (packs - 1 - q) * kVec);
      }
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        long long const q = p + u * threads;
        if (q >= packs) continue;
        P r;
#pragma unroll
        for (int e = 0; e < kVec; ++e) r.v[e] = v[u].v[kVec - 1 - e];
        kopt_strategy::store_pack<T, kVec>(out + q * kVec, r);
      }
    }
    return;
  }
  // Element by element, UNROLL independent loads in flight per thread.
  for (long long i = tid; i < count; i += threads * UNROLL) {
    T v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      long long const j = i + u * threads;
      if (j < count) v[u] = in[count - 1 - j];
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      long long const j = i + u * threads;
      if (j < count) out[j] = v[u];
    }
  }
}

}  // namespace reverse_packs

extern "C" __global__ void __launch_bounds__(BLOCK) {{ENTRY}}({{T}}* out, const {{T}}* in, int n) {
  reverse_packs::run<{{T}}>(out, in, n);
}
