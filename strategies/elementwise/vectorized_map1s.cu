// Strategy vectorized_map1s: y[i] = op(x[i], s) with a float scalar s, 128-bit loads and stores
// (scaled_copy family).
// Each thread moves ITEMS consecutive-in-a-warp elements per tile: ITEMS / VEC vectors of VEC elements,
// VEC = min(ITEMS, 16 / sizeof(T)) (a float4 or eight bf16 in one access). Vector j of a tile starts at
// element (j * BLOCK + thread) * VEC, so a warp's accesses are contiguous, and every load of the tile is
// issued before the first store (ITEMS / VEC independent 16-byte loads in flight per thread).
// GRID = 0 gives one tile per block; GRID = g > 0 caps the grid at g blocks per SM of a 132-SM H200 and
// the blocks walk the tiles grid-stride (fewer, longer-lived blocks). Unaligned buffers and the last
// partial vector take an element-by-element path, so any n and any pointer offset are correct.
//
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob ITEMS = [4, 8, 16, 32]
// kopt:knob GRID = [0, 1, 2, 4, 8] resources=none
// Resident blocks of BLOCK threads: at most 2048 threads per SM.
// kopt:constraint GRID == 0 || BLOCK * GRID <= 2048
// At most 16 KiB elements per block tile (keeps the loaded values in registers under __launch_bounds__).
// kopt:constraint BLOCK * ITEMS <= 16384
// kopt:launch grid=(GRID == 0 ? max(1, ceil_div({{ARG3}}, BLOCK * ITEMS)) : max(1, min(ceil_div({{ARG3}}, BLOCK * ITEMS), 132 * GRID))) block=(BLOCK) kernel={{ENTRY}}

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#ifndef GRID
#define GRID 0
#endif

namespace vectorized_map1s {

using kopt_strategy::from_float;
using kopt_strategy::to_float;

__device__ __forceinline__ float apply_op(float x, float s) {
  return ({{op}});
}

template <typename T>
struct Shape {
  static constexpr int kPack = 16 / static_cast<int>(sizeof(T));
  static constexpr int kVec = ITEMS < kPack ? ITEMS : kPack;  // elements per access
  static constexpr int kVectors = ITEMS / kVec;               // accesses per thread and tile
  static_assert(ITEMS % kVec == 0, "ITEMS is a multiple of the vector width");
};

template <typename T>
__device__ __forceinline__ void run(T* __restrict__ out, const T* __restrict__ in, float s, int n) {
  using S = Shape<T>;
  using P = kopt_strategy::Pack<T, S::kVec>;
  constexpr unsigned kBytes = sizeof(P);
  long long const count = n;
  long long const tile_elems = static_cast<long long>(BLOCK) * ITEMS;
  long long const stride = static_cast<long long>(gridDim.x) * tile_elems;
  bool const aligned = kopt_strategy::aligned_to(out, kBytes) && kopt_strategy::aligned_to(in, kBytes);
  for (long long tile = static_cast<long long>(blockIdx.x) * tile_elems; tile < count; tile += stride) {
    if (aligned && tile + tile_elems <= count) {
      // Full tile: every vector is in bounds. Load all, then compute and store.
      P v[S::kVectors];
#pragma unroll
      for (int j = 0; j < S::kVectors; ++j) {
        v[j] = kopt_strategy::load_pack<T, S::kVec>(
            in + tile + (static_cast<long long>(j) * BLOCK + threadIdx.x) * S::kVec);
      }
#pragma unroll
      for (int j = 0; j < S::kVectors; ++j) {
#pragma unroll
        for (int e = 0; e < S::kVec; ++e) v[j].v[e] = from_float<T>(apply_op(to_float(v[j].v[e]), s));
        kopt_strategy::store_pack<T, S::kVec>(
            out + tile + (static_cast<long long>(j) * BLOCK + threadIdx.x) * S::kVec, v[j]);
      }
    } else {
      // Last partial tile, or unaligned buffers: the same layout, one element at a time.
#pragma unroll
      for (int j = 0; j < S::kVectors; ++j) {
        long long const first = tile + (static_cast<long long>(j) * BLOCK + threadIdx.x) * S::kVec;
#pragma unroll
        for (int e = 0; e < S::kVec; ++e) {
          if (first + e < count) out[first + e] = from_float<T>(apply_op(to_float(in[first + e]), s));
        }
      }
    }
  }
}

}  // namespace vectorized_map1s

extern "C" __global__ void __launch_bounds__(BLOCK)
    {{ENTRY}}({{T}}* y, const {{T}}* x, float s, int n) {
  vectorized_map1s::run<{{T}}>(y, x, s, n);
}
