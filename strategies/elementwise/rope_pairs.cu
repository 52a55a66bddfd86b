// Strategy rope_pairs: rotary position embedding, half-split convention (rope family).
// x and out are S x H x D row-major, h = D / 2, and the cos / sin tables are S x h. For 0 <= i < h:
//   out[t][k][i]     = x[t][k][i]     * cos[t][i] - x[t][k][i + h] * sin[t][i]
//   out[t][k][i + h] = x[t][k][i + h] * cos[t][i] + x[t][k][i]     * sin[t][i]
// A thread owns VEC consecutive pair indices i of one token and HEADS heads: it loads VEC cos and sin
// values once and reuses them for all its heads, and for each head loads both halves (VEC elements each)
// and writes both halves, so every input element is read once and every output written once. Threads
// are ordered pair-vector fastest, then head group, then token, so a warp's accesses are contiguous
// runs of each half of a head. Vector accesses are 16 bytes at most (VEC elements in chunks of
// min(VEC, 16 / sizeof(T))); when h is not a multiple of VEC or a buffer is unaligned, the same work
// is done element by element with bounds checks, so any S, H and even D are correct (odd D: nothing is
// written, as in the reference).
//
// kopt:knob BLOCK = [64, 128, 256, 512]
// kopt:knob VEC = [2, 4, 8]
// kopt:knob HEADS = [1, 2, 4, 8]
// At most 32 cached input values per thread (2 * VEC * HEADS), so nothing spills:
// kopt:constraint VEC * HEADS <= 16
// kopt:launch grid=(max(1, ceil_div({{ARG4}} * ceil_div({{ARG5}}, HEADS) * ceil_div({{ARG6}} / 2, VEC), BLOCK))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef VEC
#define VEC 4
#endif
#ifndef HEADS
#define HEADS 2
#endif

namespace rope_pairs {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

template <typename T>
struct Shape {
  static constexpr int kPack = 16 / static_cast<int>(sizeof(T));
  static constexpr int kChunk = VEC < kPack ? VEC : kPack;  // elements per access
  static constexpr int kChunks = VEC / kChunk;
  static_assert(VEC % kChunk == 0, "VEC is a multiple of the access width");
};

// VEC elements from p (vector accesses when `vec`, otherwise element by element for the `valid` first).
template <typename T>
__device__ __forceinline__ void load_vec(float (&dst)[VEC], const T* p, bool vec, int valid) {
  using S = Shape<T>;
  if (vec) {
#pragma unroll
    for (int c = 0; c < S::kChunks; ++c) {
      auto const pack = kopt_strategy::load_pack<T, S::kChunk>(p + c * S::kChunk);
#pragma unroll
      for (int e = 0; e < S::kChunk; ++e) dst[c * S::kChunk + e] = to_float(pack.v[e]);
    }
  } else {
#pragma unroll
    for (int e = 0; e < VEC; ++e) dst[e] = e < valid ? to_float(p[e]) : 0.0f;
  }
}

template <typename T>
__device__ __forceinline__ void store_vec(T* p, float const (&src)[VEC], bool vec, int valid) {
  using S = Shape<T>;
  if (vec) {
#pragma unroll
    for (int c = 0; c < S::kChunks; ++c) {
      kopt_strategy::Pack<T, S::kChunk> pack;
#pragma unroll
      for (int e = 0; e < S::kChunk; ++e) pack.v[e] = from_float<T>(src[c * S::kChunk + e]);
      kopt_strategy::store_pack<T, S::kChunk>(p + c * S::kChunk, pack);
    }
  } else {
#pragma unroll
    for (int e = 0; e < VEC; ++e) {
      if (e < valid) p[e] = from_float<T>(src[e]);
    }
  }
}

template <typename T>
__device__ __forceinline__ void run(T* __restrict__ out, const T* __restrict__ x,
                                    const T* __restrict__ cos_table, const T* __restrict__ sin_table, int S,
                                    int H, int D) {
  if (S <= 0 || H <= 0 || D <= 0 || D % 2 != 0) return;
  int const half = D / 2;
  int const vectors = (half + VEC - 1) / VEC;  // pair vectors per head
  int const groups = (H + HEADS - 1) / HEADS;  // head groups per token
  long long const id = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const total = static_cast<long long>(S) * groups * vectors;
  if (id >= total) return;
  int const vector = static_cast<int>(id % vectors);
  long long const rest = id / vectors;
  int const group = static_cast<int>(rest % groups);
  long long const t = rest / groups;
  int const i = vector * VEC;
  int const valid = half - i < VEC ? half - i : VEC;
  // Vector accesses need h to be a multiple of VEC (then every offset below is too) and aligned buffers.
  constexpr unsigned kBytes = sizeof(T) * Shape<T>::kChunk;
  bool const vec = half % VEC == 0 && kopt_strategy::aligned_to(out, kBytes) &&
                   kopt_strategy::aligned_to(x, kBytes) && kopt_strategy::aligned_to(cos_table, kBytes) &&
                   kopt_strategy::aligned_to(sin_table, kBytes);
  float c[VEC];
  float s[VEC];
  load_vec<T>(c, cos_table + t * half + i, vec, valid);
  load_vec<T>(s, sin_table + t * half + i, vec, valid);
  int const first_head = group * HEADS;
  int const heads = H - first_head < HEADS ? H - first_head : HEADS;
  // Load every head's halves first (2 * HEADS independent accesses in flight), then rotate and store.
  float lo[HEADS][VEC];
  float hi[HEADS][VEC];
#pragma unroll
  for (int k = 0; k < HEADS; ++k) {
    if (k < heads) {
      long long const base = (t * H + first_head + k) * static_cast<long long>(D) + i;
      load_vec<T>(lo[k], x + base, vec, valid);
      load_vec<T>(hi[k], x + base + half, vec, valid);
    }
  }
#pragma unroll
  for (int k = 0; k < HEADS; ++k) {
    if (k < heads) {
      long long const base = (t * H + first_head + k) * static_cast<long long>(D) + i;
      float first[VEC];
      float second[VEC];
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
        first[e] = lo[k][e] * c[e] - hi[k][e] * s[e];
        second[e] = hi[k][e] * c[e] + lo[k][e] * s[e];
      }
      store_vec<T>(out + base, first, vec, valid);
      store_vec<T>(out + base + half, second, vec, valid);
    }
  }
}

}  // namespace rope_pairs

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* out, const {{T}}* x, const {{T}}* cos_table,
                        const {{T}}* sin_table, int S, int H, int D) {
  rope_pairs::run<{{T}}>(out, x, cos_table, sin_table, S, H, D);
}
