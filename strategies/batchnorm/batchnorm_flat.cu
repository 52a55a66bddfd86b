// Strategy batchnorm_flat, batchnorm family (kernel mode): batch normalisation with given statistics
// (inference), NCHW: out = (x - mean[c]) * gamma[c] / sqrt(var[c] + eps) + beta[c], over the tensor as
// one flat array: for planes too small to give a block work of its own (7 x 7, 14 x 14 feature maps), where
// batchnorm_planes would launch mostly idle threads, and for any plane size that is not a multiple of the
// vector. A grid of at most GRID blocks per SM walks the 128-bit packs grid-stride, UNROLL packs in flight
// per thread (all loaded before any is stored).
// No division per pack: a thread's packs lie a fixed stride apart (the grid's threads times the pack), so it
// keeps a cursor, the offset of its pack in the pack's plane and the plane's channel, and advances it by
// the stride's whole planes (taken mod C, worked out once) and its remainder, which carries at most one
// plane more: a few integer adds and compares per pack. Only the cursor's start and the stride's split
// divide, once per thread, in 32 bits when the tensor has fewer than 2^31 elements. (The division per
// pack, 64-bit, was most of the instructions with BF16's 8-element packs.) A pack inside one plane takes
// its channel's constants once; a pack across two planes also the next channel's, and picks per element.
// The small per-channel arrays stay in L1/L2. Unaligned buffers, planes smaller than a pack and the last
// partial pack go element by element (the same cursor), so any shape and offset are correct.
//
// Knobs: BLOCK threads per block; UNROLL packs in flight per thread; GRID blocks per SM of a 132-SM H200.
// Defaults UNROLL = 4 and GRID = 8: at 48-64 registers about four 256-thread blocks fit an SM, and four
// packs per thread keep some 64 KB per SM in flight (2 and 4 measured 0.67 waves and half the latency
// in memory waits on the H200, BF16).
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob GRID = [1, 2, 4, 8, 16] resources=none
// Resident blocks of BLOCK threads: at most 2048 threads per SM.
// kopt:constraint BLOCK * GRID <= 2048
// kopt:launch grid=(max(1, min(ceil_div({{ARG7}} * {{ARG8}} * {{ARG9}} * {{ARG10}}, BLOCK * UNROLL * 4), 132 * GRID))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef GRID
#define GRID 8
#endif

namespace batchnorm_flat {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

struct Channel {
  float mean;
  float scale;
  float shift;
};

template <typename T>
__device__ __forceinline__ Channel channel(int c, const T* mean, const T* var, const T* gamma, const T* beta,
                                           float eps) {
  return {to_float(mean[c]), to_float(gamma[c]) * rsqrtf(to_float(var[c]) + eps), to_float(beta[c])};
}

// A pack is loaded and stored as four 32-bit words: BF16 values are widened and packed with one integer or
// conversion instruction per element pair, not moved through half registers.
using Words = kopt_strategy::Pack<unsigned, 4>;
__device__ __forceinline__ float element(float const*, Words const& w, int e) { return __uint_as_float(w.v[e]); }
__device__ __forceinline__ float element(__nv_bfloat16 const*, Words const& w, int e) {
  unsigned const u = w.v[e >> 1];
  return __uint_as_float((e & 1) != 0 ? (u & 0xffff0000u) : (u << 16));
}
__device__ __forceinline__ void set(float const*, Words& w, float const (&f)[4]) {
#pragma unroll
  for (int i = 0; i < 4; ++i) w.v[i] = __float_as_uint(f[i]);
}
__device__ __forceinline__ void set(__nv_bfloat16 const*, Words& w, float const (&f)[8]) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    __nv_bfloat162 const h = __floats2bfloat162_rn(f[2 * i], f[2 * i + 1]);
    w.v[i] = static_cast<unsigned>(__bfloat16_as_ushort(h.x)) |
             (static_cast<unsigned>(__bfloat16_as_ushort(h.y)) << 16);
  }
}

// Where a flat element index lies: `off` elements into its plane, whose channel is `c`. I is the index type
// (unsigned when the tensor has fewer than 2^31 elements, so off + rest cannot wrap).
template <typename I>
struct Cursor {
  I off;
  int c;
  __device__ __forceinline__ void start(I at, I hw, int C) {
    I const plane = at / hw;
    off = at - plane * hw;
    c = static_cast<int>(plane % static_cast<I>(C));
  }
  // Advances by a stride of `planes_c` whole planes (mod C) and `rest` < hw elements.
  __device__ __forceinline__ void advance(I rest, int planes_c, I hw, int C) {
    off += rest;
    c += planes_c;
    if (off >= hw) {
      off -= hw;
      ++c;
    }
    if (c >= C) c -= C;  // c + planes_c + 1 <= 2C - 1
  }
};

// A stride of `step` elements as whole planes (mod C) and a remainder.
template <typename I>
__device__ __forceinline__ void split(I step, I hw, int C, I& rest, int& planes_c) {
  I const planes = step / hw;
  rest = step - planes * hw;
  planes_c = static_cast<int>(planes % static_cast<I>(C));
}

template <typename T, typename I>
__device__ __forceinline__ void run(T* __restrict__ out, const T* __restrict__ x, const T* __restrict__ mean,
                                    const T* __restrict__ var, const T* __restrict__ gamma,
                                    const T* __restrict__ beta, float eps, int C, I hw, I total) {
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  T const* const tag = nullptr;  // selects the element helpers for T
  I const threads = static_cast<I>(gridDim.x) * BLOCK;
  I const tid = static_cast<I>(blockIdx.x) * BLOCK + threadIdx.x;
  bool const aligned = kopt_strategy::aligned_to(x, 16) && kopt_strategy::aligned_to(out, 16);
  // Planes smaller than a pack (1 x 1, 2 x 2) would put several boundaries in one pack: element by element.
  I const packs = aligned && hw >= static_cast<I>(kVec) ? total / kVec : 0;
  if (tid < packs) {
    I rest;
    int planes_c;
    split<I>(threads * kVec, hw, C, rest, planes_c);
    Cursor<I> cur;
    cur.start(tid * kVec, hw, C);
    for (I p = tid; p < packs; p += threads * UNROLL) {
      Words v[UNROLL];
#pragma unroll
      for (int u = 0; u < UNROLL; ++u)
        if (p + u * threads < packs)
          v[u] = kopt_strategy::load_pack<unsigned, 4>(
              reinterpret_cast<unsigned const*>(x + (p + u * threads) * kVec));
#pragma unroll
      for (int u = 0; u < UNROLL; ++u) {
        if (p + u * threads >= packs) break;  // this thread's last pack is done
        Channel const ch = channel(cur.c, mean, var, gamma, beta, eps);
        float f[kVec];
        if (cur.off + kVec <= hw) {  // inside one plane
#pragma unroll
          for (int e = 0; e < kVec; ++e) f[e] = fmaf(element(tag, v[u], e) - ch.mean, ch.scale, ch.shift);
        } else {  // across one plane boundary (hw >= kVec): the next channel from element hw - off on
          Channel const cn = channel(cur.c + 1 == C ? 0 : cur.c + 1, mean, var, gamma, beta, eps);
          int const first_next = static_cast<int>(hw - cur.off);
#pragma unroll
          for (int e = 0; e < kVec; ++e) {
            bool const next = e >= first_next;
            f[e] = fmaf(element(tag, v[u], e) - (next ? cn.mean : ch.mean), next ? cn.scale : ch.scale,
                        next ? cn.shift : ch.shift);
          }
        }
        Words o;
        set(tag, o, f);
        kopt_strategy::store_pack<unsigned, 4>(reinterpret_cast<unsigned*>(out + (p + u * threads) * kVec), o);
        cur.advance(rest, planes_c, hw, C);
      }
    }
  }
  // The elements after the last whole pack (all of them when the buffers are not aligned).
  I const first = packs * kVec + tid;
  if (first < total) {
    I rest;
    int planes_c;
    split<I>(threads, hw, C, rest, planes_c);
    Cursor<I> cur;
    cur.start(first, hw, C);
    for (I i = first; i < total; i += threads) {
      Channel const ch = channel(cur.c, mean, var, gamma, beta, eps);
      out[i] = from_float<T>(fmaf(to_float(x[i]) - ch.mean, ch.scale, ch.shift));
      cur.advance(rest, planes_c, hw, C);
    }
  }
}

}  // namespace batchnorm_flat

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* out, const {{T}}* x, const {{T}}* mean, const {{T}}* var, const {{T}}* gamma,
              const {{T}}* beta, float eps, int N, int C, int H, int W) {
  long long const hw = static_cast<long long>(H) * W;
  long long const total = static_cast<long long>(N) * C * hw;
  if (hw <= 0 || total <= 0) return;
  // 32-bit indices when every index, and an offset plus a stride's remainder, stay below 2^32.
  long long const threads = static_cast<long long>(gridDim.x) * BLOCK;
  if (total + threads * 16 < (1ll << 31)) {
    batchnorm_flat::run<{{T}}, unsigned>(out, x, mean, var, gamma, beta, eps, C, static_cast<unsigned>(hw),
                                         static_cast<unsigned>(total));
  } else {
    batchnorm_flat::run<{{T}}, unsigned long long>(out, x, mean, var, gamma, beta, eps, C,
                                                   static_cast<unsigned long long>(hw),
                                                   static_cast<unsigned long long>(total));
  }
}
