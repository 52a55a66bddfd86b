// Strategy channel_map_packs (family channel_map, kernel mode): out[i] = op(v, p) over an outer x C x inner
// tensor (NCHW: outer = N, inner = H * W; an N x C matrix: inner = 1), v = in[i] and p = channel[c] the value
// of the element's channel c = (i / inner) % C: a per-channel parameter applied after a layer or a norm
// (`x * self.scale` with a (C, 1, 1) scale, then an activation; KernelBench level 2's chains), in FP32, one
// rounding per output.
// A thread takes ITEMS consecutive elements per step (128-bit packs, its loads issued before its stores).
// When inner is a multiple of the pack, a pack lies in one channel: one channel index and one parameter per
// pack; otherwise each element of the pack finds its own (an N x C matrix's consecutive channels). The
// channel index is computed in 32 bits where the tensor has fewer than 2^31 elements. Unaligned buffers and
// the last partial step take the element path, consecutive lanes on consecutive elements. GRID = 0: one step
// per thread; GRID = g: at most g blocks per SM of a 132-SM GPU, walking grid-stride.
//
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob ITEMS = [4, 8, 16]
// kopt:knob GRID = [0, 2, 4, 8] resources=none
// kopt:constraint GRID == 0 || BLOCK * GRID <= 2048
// kopt:launch grid=(GRID == 0 ? max(1, ceil_div({{ARG3}} * {{ARG4}} * {{ARG5}}, BLOCK * ITEMS)) : max(1, min(ceil_div({{ARG3}} * {{ARG4}} * {{ARG5}}, BLOCK * ITEMS), 132 * GRID))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#ifndef GRID
#define GRID 0
#endif

namespace channel_map_packs {

using kopt_strategy::from_float;
using kopt_strategy::to_float;
using T = {{T}};
constexpr int kPack = 16 / static_cast<int>(sizeof(T));
constexpr int kVec = ITEMS < kPack ? ITEMS : kPack;  // elements per access
constexpr int kVectors = ITEMS / kVec;               // accesses per thread and step
static_assert(ITEMS % kVec == 0, "ITEMS is a multiple of the vector width");
using Vec = kopt_strategy::Pack<T, kVec>;

__device__ __forceinline__ float apply(float v, float p) {
  return ({{op}});
}

// The channel of element i: (i / inner) % C, in 32 bits when the tensor allows.
template <typename Index>
__device__ __forceinline__ int channel_of(long long i, long long inner, int C) {
  return static_cast<int>((static_cast<Index>(i) / static_cast<Index>(inner)) % static_cast<Index>(C));
}

template <typename Index>
__device__ __forceinline__ void run(T* __restrict__ out, const T* __restrict__ in,
                                    const T* __restrict__ channel, long long count, int C, long long inner) {
  long long const step = static_cast<long long>(BLOCK) * ITEMS;
  long long const stride = static_cast<long long>(gridDim.x) * step;
  bool const packs =
      kopt_strategy::aligned_to(out, sizeof(Vec)) && kopt_strategy::aligned_to(in, sizeof(Vec));
  bool const one_channel = inner % kVec == 0;  // every pack lies in one channel
  for (long long base = static_cast<long long>(blockIdx.x) * step; base < count; base += stride) {
    if (packs && base + step <= count) {
      Vec v[kVectors];
#pragma unroll
      for (int j = 0; j < kVectors; ++j)
        v[j] = kopt_strategy::load_pack<T, kVec>(in + base +
                                                 (static_cast<long long>(j) * BLOCK + threadIdx.x) * kVec);
#pragma unroll
      for (int j = 0; j < kVectors; ++j) {
        long long const first = base + (static_cast<long long>(j) * BLOCK + threadIdx.x) * kVec;
        if (one_channel) {
          float const p = to_float(channel[channel_of<Index>(first, inner, C)]);
#pragma unroll
          for (int e = 0; e < kVec; ++e) v[j].v[e] = from_float<T>(apply(to_float(v[j].v[e]), p));
        } else {
#pragma unroll
          for (int e = 0; e < kVec; ++e)
            v[j].v[e] = from_float<T>(
                apply(to_float(v[j].v[e]), to_float(channel[channel_of<Index>(first + e, inner, C)])));
        }
        kopt_strategy::store_pack<T, kVec>(out + first, v[j]);
      }
    } else {
      // The tail, or unaligned buffers: element by element, consecutive lanes on consecutive elements.
#pragma unroll
      for (int k = 0; k < ITEMS; ++k) {
        long long const i = base + static_cast<long long>(k) * BLOCK + threadIdx.x;
        if (i < count)
          out[i] = from_float<T>(apply(to_float(in[i]), to_float(channel[channel_of<Index>(i, inner, C)])));
      }
    }
  }
}

}  // namespace channel_map_packs

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* out, const {{T}}* in, const {{T}}* channel, int outer, int C, int inner) {
  long long const count = static_cast<long long>(outer) * C * inner;
  if (count <= 0) return;
  if (count <= 0x7fffffffLL) {
    channel_map_packs::run<unsigned>(out, in, channel, count, C, inner);
  } else {
    channel_map_packs::run<unsigned long long>(out, in, channel, count, C, inner);
  }
}
