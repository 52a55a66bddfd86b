// A warp's part of a tile held in registers as rows of 128-bit packs (decoupled_lookback_scan and
// reduce_then_scan; spliced into their namespace by `// kopt:include tile_rows.cuh` after T, kPack, kRows
// and warp_inclusive.cuh). Warp w owns 32 * ITEMS consecutive elements from warp_begin on; row r is the
// 32 packs from warp_begin + r * 32 * kPack, one pack per lane, so every access of a warp is contiguous.
// Where the buffers are not 16-byte aligned (vector_ok false) or a pack reaches past `end`, elements are
// read and written one by one (zeros are read past end), so any alignment and any n work.

__device__ __forceinline__ void load_rows(float (&v)[kRows][kPack], T const* in, long long warp_begin,
                                          long long end, int lane, bool vector_ok) {
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    long long const i = warp_begin + (static_cast<long long>(r) * 32 + lane) * kPack;
    if (vector_ok && i + kPack <= end) {
      kopt_strategy::Pack<T, kPack> const p = kopt_strategy::load_pack<T, kPack>(in + i);
#pragma unroll
      for (int e = 0; e < kPack; ++e) v[r][e] = kopt_strategy::to_float(p.v[e]);
    } else {
#pragma unroll
      for (int e = 0; e < kPack; ++e) v[r][e] = i + e < end ? kopt_strategy::to_float(in[i + e]) : 0.0f;
    }
  }
}

// Scans the warp's elements in place, row after row with warp shuffles, carrying the running warp total
// from row to row; returns the warp's total (in every lane).
__device__ __forceinline__ float scan_rows(float (&v)[kRows][kPack], int lane) {
  float running = 0.0f;
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
#pragma unroll
    for (int e = 1; e < kPack; ++e) v[r][e] += v[r][e - 1];
    float const inclusive = warp_inclusive(v[r][kPack - 1], lane);
    float exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
    if (lane == 0) exclusive = 0.0f;
    float const add = running + exclusive;
#pragma unroll
    for (int e = 0; e < kPack; ++e) v[r][e] += add;
    running += __shfl_sync(0xffffffffu, inclusive, 31);
  }
  return running;
}

// Writes v + add, each result rounded once to T.
__device__ __forceinline__ void store_rows(T* out, float const (&v)[kRows][kPack], float add,
                                           long long warp_begin, long long end, int lane, bool vector_ok) {
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    long long const i = warp_begin + (static_cast<long long>(r) * 32 + lane) * kPack;
    if (vector_ok && i + kPack <= end) {
      kopt_strategy::Pack<T, kPack> p;
#pragma unroll
      for (int e = 0; e < kPack; ++e) p.v[e] = kopt_strategy::from_float<T>(v[r][e] + add);
      kopt_strategy::store_pack<T, kPack>(out + i, p);
    } else {
#pragma unroll
      for (int e = 0; e < kPack; ++e) {
        if (i + e < end) out[i + e] = kopt_strategy::from_float<T>(v[r][e] + add);
      }
    }
  }
}
