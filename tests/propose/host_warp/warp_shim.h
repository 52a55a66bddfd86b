// Host emulation of the CUDA built-ins that warp-level strategy templates use (row_scan_warp_per_row.cu), so
// their index arithmetic and shuffle logic run on a machine without a GPU: one std::thread per lane, a warp's
// 32 lanes meeting at a std::barrier on each side of every shuffle (lockstep where it matters), threadIdx and
// blockIdx per thread. No shared memory, no __syncthreads, no atomics: templates that need them are not
// emulated. The kernel's text comes from `kopt strategies TASK --instantiate`, minus the common header
// (strategies/common/strategy.cuh), whose device helpers are replaced by the host versions below.
#pragma once
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>
#define __device__
#define __host__
#define __forceinline__ inline
#define __global__
#define __launch_bounds__(...)
#define __restrict__ __restrict
struct uint4 {
  unsigned x, y, z, w;
};
struct uint2 {
  unsigned x, y;
};
struct Dim3 {
  unsigned x;
};
thread_local Dim3 blockIdx, threadIdx;
struct __nv_bfloat16 {
  uint16_t bits;
};
inline float __uint_as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
template <class T>
inline T __ldg(T const* p) {
  T r;
  std::memcpy(&r, p, sizeof(T));
  return r;
}
template <class T>
inline T __ldcs(T const* p) {
  return __ldg(p);
}
struct Warp {
  float slot[32];
  std::barrier<> bar{32};
};
thread_local Warp* t_warp;
inline int lane_id() {
  return static_cast<int>(threadIdx.x) % 32;
}
inline float exchange(float v, int src) {
  t_warp->slot[lane_id()] = v;
  t_warp->bar.arrive_and_wait();
  float const r = t_warp->slot[src];
  t_warp->bar.arrive_and_wait();
  return r;
}
inline float __shfl_up_sync(unsigned, float v, unsigned delta, int width = 32) {
  int const lane = lane_id(), base = lane / width * width;
  int const src = lane - static_cast<int>(delta);
  return exchange(v, src >= base ? src : lane);
}
inline float __shfl_sync(unsigned, float v, int src, int width = 32) {
  int const lane = lane_id();
  return exchange(v, lane / width * width + src % width);
}
namespace kopt_strategy {
inline float to_float(float v) {
  return v;
}
inline float to_float(__nv_bfloat16 v) {
  return __uint_as_float(unsigned(v.bits) << 16);
}
template <typename T>
T from_float(float v);
template <>
inline float from_float<float>(float v) {
  return v;
}
template <>
inline __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
  unsigned u;
  std::memcpy(&u, &v, 4);
  u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest even (finite inputs)
  return __nv_bfloat16{static_cast<uint16_t>(u >> 16)};
}
template <typename T, int N>
struct alignas(sizeof(T) * N) Pack {
  T v[N];
};
template <typename T, int N>
inline void store_pack(T* p, Pack<T, N> const& pack) {
  std::memcpy(p, &pack, sizeof(pack));
}
inline bool aligned_to(void const* p, unsigned bytes) {
  return (reinterpret_cast<unsigned long long>(p) & (bytes - 1ull)) == 0ull;
}
}  // namespace kopt_strategy
