// Strategy rope_interleaved_pairs: rotary position embedding, INTERLEAVED convention (rope_interleaved
// family: GPT-J, Meta's original LLaMA, torch.view_as_complex pairs; the half-split NeoX layout is the rope
// family's rope_pairs). x and out are S x H x D row-major, D even, and the cos / sin tables are S x D/2.
// Pair i of a head is its adjacent elements (2i, 2i + 1); for 0 <= i < D/2:
//   out[t][k][2i]     = x[t][k][2i]     * cos[t][i] - x[t][k][2i + 1] * sin[t][i]
//   out[t][k][2i + 1] = x[t][k][2i + 1] * cos[t][i] + x[t][k][2i]     * sin[t][i]
// A thread owns VEC consecutive pairs of one token for HEADS heads: it loads the VEC cos and sin values
// once and reuses them for all its heads, and for each head loads the 2 * VEC contiguous elements of its
// pairs (one 128-bit access holds 2 FP32 or 4 BF16 pairs), rotates them in registers and stores them, so
// every input element is read once and every output written once. Threads are ordered pair vector
// fastest, then head group, then token, so a warp's accesses are contiguous runs of a head row. Accesses
// are 16 bytes at most (2 * VEC elements of x and VEC of each table in chunks of at most 16 / sizeof(T)
// elements); when D/2 is not a multiple of VEC or a buffer is not aligned to the access width, the same
// work goes element by element with bounds checks (coalesced still), so any S, H and even D are correct
// (odd D: nothing is written, as in the reference). VEC = 1 keeps 8-byte (FP32) accesses of x for any
// even D, D/2 odd included. Arithmetic in FP32, one rounding per output.
//
// Knobs: BLOCK threads per block; VEC pairs per thread; HEADS heads per thread sharing its table values.
// kopt:knob BLOCK = [64, 128, 256, 512]
// kopt:knob VEC = [1, 2, 4, 8]
// kopt:knob HEADS = [1, 2, 4, 8]
// At most 32 cached input values per thread (2 * VEC * HEADS), so nothing spills:
// kopt:constraint VEC * HEADS <= 16
// kopt:launch grid=(max(1, ceil_div({{ARG4}} * ceil_div({{ARG5}}, HEADS) * ceil_div({{ARG6}} / 2, VEC), BLOCK))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef VEC
#define VEC 2
#endif
#ifndef HEADS
#define HEADS 2
#endif

namespace rope_interleaved_pairs {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

// Elements of T per access when a thread moves N consecutive elements: the whole run, at most 16 bytes.
template <typename T, int N>
struct Run {
  static constexpr int kPack = 16 / static_cast<int>(sizeof(T));
  static constexpr int kChunk = N < kPack ? N : kPack;
  static constexpr int kChunks = N / kChunk;
  static constexpr unsigned kBytes = sizeof(T) * kChunk;
  static_assert(N % kChunk == 0, "N is a multiple of the access width");
};

// N consecutive elements from p (vector accesses when `vec`, otherwise element by element for the first
// `valid`; the rest are 0 and never stored).
template <typename T, int N>
__device__ __forceinline__ void load_run(float (&dst)[N], const T* p, bool vec, int valid) {
  using R = Run<T, N>;
  if (vec) {
#pragma unroll
    for (int c = 0; c < R::kChunks; ++c) {
      auto const pack = kopt_strategy::load_pack<T, R::kChunk>(p + c * R::kChunk);
#pragma unroll
      for (int e = 0; e < R::kChunk; ++e) dst[c * R::kChunk + e] = to_float(pack.v[e]);
    }
  } else {
#pragma unroll
    for (int e = 0; e < N; ++e) dst[e] = e < valid ? to_float(p[e]) : 0.0f;
  }
}

template <typename T, int N>
__device__ __forceinline__ void store_run(T* p, float const (&src)[N], bool vec, int valid) {
  using R = Run<T, N>;
  if (vec) {
#pragma unroll
    for (int c = 0; c < R::kChunks; ++c) {
      kopt_strategy::Pack<T, R::kChunk> pack;
#pragma unroll
      for (int e = 0; e < R::kChunk; ++e) pack.v[e] = from_float<T>(src[c * R::kChunk + e]);
      kopt_strategy::store_pack<T, R::kChunk>(p + c * R::kChunk, pack);
    }
  } else {
#pragma unroll
    for (int e = 0; e < N; ++e) {
      if (e < valid) p[e] = from_float<T>(src[e]);
    }
  }
}

template <typename T>
__device__ __forceinline__ void run(T* __restrict__ out, const T* __restrict__ x,
                                    const T* __restrict__ cos_table, const T* __restrict__ sin_table, int S,
                                    int H, int D) {
  if (S <= 0 || H <= 0 || D <= 0 || D % 2 != 0) return;
  int const half = D / 2;                      // pairs per head
  int const vectors = (half + VEC - 1) / VEC;  // pair vectors per head
  int const groups = (H + HEADS - 1) / HEADS;  // head groups per token
  long long const id = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const total = static_cast<long long>(S) * groups * vectors;
  if (id >= total) return;
  // (token, head group, pair vector) of this thread: 32-bit divisions (a few instructions) while the work
  // fits in 32 bits, a uniform branch; 64-bit ones (a long call each) only beyond.
  int vector;
  int group;
  long long t;
  if (total <= 0xffffffffll) {
    unsigned const u = static_cast<unsigned>(id);
    unsigned const rest = u / static_cast<unsigned>(vectors);
    vector = static_cast<int>(u - rest * static_cast<unsigned>(vectors));
    group = static_cast<int>(rest % static_cast<unsigned>(groups));
    t = rest / static_cast<unsigned>(groups);
  } else {
    long long const rest = id / vectors;
    vector = static_cast<int>(id - rest * vectors);
    group = static_cast<int>(rest % groups);
    t = rest / groups;
  }
  int const i = vector * VEC;                         // first pair
  int const valid = half - i < VEC ? half - i : VEC;  // pairs of this vector inside the head
  // Vector accesses need D/2 to be a multiple of VEC (then every pair vector is whole, x offsets are
  // multiples of 2 * VEC elements and table offsets multiples of VEC) and buffers aligned to the accesses.
  using XRun = Run<T, 2 * VEC>;
  using TRun = Run<T, VEC>;
  bool const vec = half % VEC == 0 && kopt_strategy::aligned_to(out, XRun::kBytes) &&
                   kopt_strategy::aligned_to(x, XRun::kBytes) &&
                   kopt_strategy::aligned_to(cos_table, TRun::kBytes) &&
                   kopt_strategy::aligned_to(sin_table, TRun::kBytes);
  float c[VEC];
  float s[VEC];
  load_run<T, VEC>(c, cos_table + t * half + i, vec, valid);
  load_run<T, VEC>(s, sin_table + t * half + i, vec, valid);
  int const first_head = group * HEADS;
  int const heads = H - first_head < HEADS ? H - first_head : HEADS;
  // Load every head's pairs first (HEADS independent accesses in flight), then rotate and store.
  float v[HEADS][2 * VEC];
#pragma unroll
  for (int k = 0; k < HEADS; ++k) {
    if (k < heads) {
      long long const base = (t * H + first_head + k) * static_cast<long long>(D) + 2 * i;
      load_run<T, 2 * VEC>(v[k], x + base, vec, 2 * valid);
    }
  }
#pragma unroll
  for (int k = 0; k < HEADS; ++k) {
    if (k < heads) {
      long long const base = (t * H + first_head + k) * static_cast<long long>(D) + 2 * i;
      float r[2 * VEC];
#pragma unroll
      for (int e = 0; e < VEC; ++e) {
        float const even = v[k][2 * e];
        float const odd = v[k][2 * e + 1];
        r[2 * e] = even * c[e] - odd * s[e];
        r[2 * e + 1] = odd * c[e] + even * s[e];
      }
      store_run<T, 2 * VEC>(out + base, r, vec, 2 * valid);
    }
  }
}

}  // namespace rope_interleaved_pairs

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* out, const {{T}}* x, const {{T}}* cos_table, const {{T}}* sin_table, int S, int H,
              int D) {
  rope_interleaved_pairs::run<{{T}}>(out, x, cos_table, sin_table, S, H, D);
}
