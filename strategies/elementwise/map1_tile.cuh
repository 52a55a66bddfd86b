// The body of the vectorized one-input maps (vectorized_map1, map1s, map1ss): out[i] = op(in[i])
// over tiles of BLOCK * ITEMS elements, 128-bit accesses when both buffers are aligned, the element path
// otherwise and for the last partial tile. `op` is a functor of one float (the template's op, with the
// task's scalars bound in). Included inside the template's namespace, after BLOCK and ITEMS and the
// using-declarations of to_float and from_float.

template <typename T>
struct Shape {
  static constexpr int kPack = 16 / static_cast<int>(sizeof(T));
  static constexpr int kVec = ITEMS < kPack ? ITEMS : kPack;  // elements per access
  static constexpr int kVectors = ITEMS / kVec;               // accesses per thread and tile
  static_assert(ITEMS % kVec == 0, "ITEMS is a multiple of the vector width");
};

template <typename T, typename Op>
__device__ __forceinline__ void run(T* __restrict__ out, const T* __restrict__ in, int n, Op const& op) {
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
        for (int e = 0; e < S::kVec; ++e) v[j].v[e] = from_float<T>(op(to_float(v[j].v[e])));
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
          if (first + e < count) out[first + e] = from_float<T>(op(to_float(in[first + e])));
        }
      }
    }
  }
}
