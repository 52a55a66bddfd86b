// Host emulation of the CUDA built-ins that warp-level strategy templates use (row_scan_warp_per_row.cu,
// row_logsumexp_online.cu), and of a whole block with shared memory and barriers
// (conv2d_nchw_implicit_gemm.cu's transposed forms, run_block below), so their index arithmetic and shuffle
// logic run on a machine without a GPU. A warp is 32 fibers (ucontext, one stack each) run in turn by
// run_warp: every shuffle is two rendezvous (each lane publishes its value, then each reads its source), and
// a round of the scheduler moves every lane to the next one, so the lanes stay in lockstep where it matters,
// as on the GPU (a lane starts on its own stack by swapcontext; switches are _setjmp/_longjmp, which make no
// system call). threadIdx and blockIdx are per lane. No atomics. run_block runs the threads of one block the
// same way (up to 1024 fibers): __syncthreads is then a rendezvous of every thread of the block, and
// __shared__ variables are statics, which the block's fibers share as a block shares its shared memory
// (blocks run one after another); a shuffle there is a rendezvous of the whole block. A lane that finishes
// while the others still wait at a shuffle is a divergent shuffle, which the GPU leaves undefined: run_warp
// reports it. A template without shuffles (channel_map_packs.cu) may instead run thread after thread, its
// check setting blockIdx, threadIdx and gridDim itself (channel_map_check.inc). A pack access off its
// alignment aborts, as the GPU faults. The kernel's text comes from `kopt strategies TASK --instantiate`,
// minus the common header (strategies/common/strategy.cuh), whose device helpers are replaced by the host
// versions below.
#pragma once
#include <setjmp.h>
#include <ucontext.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
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
  unsigned x, y, z;
};
struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(8) float2 {
  float x, y;
};
inline float2 make_float2(float a, float b) {
  return float2{a, b};
}
#define __align__(n) __attribute__((aligned(n)))
inline Dim3 blockIdx, threadIdx, gridDim, blockDim;
struct __nv_bfloat16 {
  uint16_t bits;
};
inline float __uint_as_float(unsigned u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline float __int_as_float(int i) {
  float f;
  std::memcpy(&f, &i, 4);
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
template <class T>
inline void __stcs(T* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// One warp (or, for run_block, one block) of fibers: the lanes' stacks (reused warp after warp), the lane
// running now and the shuffles' slots.
struct Warp {
  static constexpr std::size_t kStack = 128 * 1024;
  static constexpr int kMaxLanes = 1024;
  ucontext_t start;
  ucontext_t lanes[kMaxLanes];
  jmp_buf scheduler;
  jmp_buf resume[kMaxLanes];
  std::vector<char> stacks[kMaxLanes];
  bool started[kMaxLanes] = {};
  bool done[kMaxLanes] = {};
  int lane = 0;
  int count = 32;            // lanes run together: 32, or a block's threads under run_block
  bool whole_block = false;  // run_block: lanes are a block's threads, __syncthreads their rendezvous
  float slot[kMaxLanes] = {};
  std::function<void()> kernel;
  unsigned block = 0, warp = 0;
  Dim3 block3{};
};
inline Warp g_warp_state;
inline Warp* const g_warp = &g_warp_state;

inline void set_lane_ids() {
  if (g_warp->whole_block) {
    blockIdx = g_warp->block3;
    threadIdx = Dim3{static_cast<unsigned>(g_warp->lane), 0, 0};
    return;
  }
  blockIdx.x = g_warp->block;
  threadIdx.x = g_warp->warp * 32 + static_cast<unsigned>(g_warp->lane);
}
// Back to the scheduler; resumed once every other lane has got here too.
inline void rendezvous() {
  if (_setjmp(g_warp->resume[g_warp->lane]) == 0) _longjmp(g_warp->scheduler, 1);
  set_lane_ids();
}
inline void lane_main() {
  g_warp->kernel();
  g_warp->done[g_warp->lane] = true;
  _longjmp(g_warp->scheduler, 1);  // never returns: the next warp starts this stack afresh
}
// Runs w.kernel as w.count lanes until all of them end; false when some ended while others waited at a
// rendezvous (a divergent shuffle or barrier).
inline bool run_lanes() {
  Warp& w = *g_warp;
  for (int l = 0; l < w.count; ++l) {
    w.started[l] = w.done[l] = false;
    if (w.stacks[l].empty()) w.stacks[l].resize(Warp::kStack);
  }
  while (true) {
    int finished = 0;
    for (int l = 0; l < w.count; ++l) {
      if (!w.done[l]) {
        w.lane = l;
        set_lane_ids();
        if (_setjmp(w.scheduler) == 0) {
          if (w.started[l]) _longjmp(w.resume[l], 1);
          w.started[l] = true;
          getcontext(&w.lanes[l]);
          w.lanes[l].uc_stack.ss_sp = w.stacks[l].data();
          w.lanes[l].uc_stack.ss_size = Warp::kStack;
          w.lanes[l].uc_link = nullptr;
          makecontext(&w.lanes[l], lane_main, 0);
          swapcontext(&w.start, &w.lanes[l]);
        }
      }
      finished += w.done[l] ? 1 : 0;
    }
    if (finished == w.count) return true;
    if (finished > 0) return false;  // some lanes left while the others wait at a shuffle or barrier
  }
}

// Runs `kernel` as the 32 lanes of warp `warp` of block `block`; false when the lanes diverged at a shuffle.
inline bool run_warp(unsigned block, unsigned warp, std::function<void()> kernel) {
  Warp& w = *g_warp;
  w.kernel = std::move(kernel);
  w.block = block;
  w.warp = warp;
  w.count = 32;
  w.whole_block = false;
  return run_lanes();
}

// Runs `kernel` as the `threads` threads of block `block` (threadIdx.x < threads, blockIdx = block), every
// __syncthreads a barrier of all of them; false when some threads ended while others waited at a barrier.
inline bool run_block(Dim3 block, int threads, std::function<void()> kernel) {
  Warp& w = *g_warp;
  if (threads < 1 || threads > Warp::kMaxLanes) {
    std::fprintf(stderr, "run_block: %d threads\n", threads);
    std::abort();
  }
  w.kernel = std::move(kernel);
  w.block3 = block;
  blockDim = Dim3{static_cast<unsigned>(threads), 1, 1};
  w.count = threads;
  w.whole_block = true;
  bool const ok = run_lanes();
  w.whole_block = false;
  return ok;
}

inline int lane_id() {
  return static_cast<int>(threadIdx.x) % 32;
}
// Under run_block every thread of the block takes part in each rendezvous, so a shuffle there needs every
// warp of the block to shuffle the same number of times (uniform code: a row's group sums); otherwise the
// warps wait for each other at the wrong shuffles, which the GPU would not do.
inline float exchange(float v, int src) {
  int const base = g_warp->whole_block ? static_cast<int>(threadIdx.x) / 32 * 32 : 0;
  g_warp->slot[base + lane_id()] = v;
  rendezvous();
  float const r = g_warp->slot[base + src];
  rendezvous();
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
inline float __shfl_xor_sync(unsigned, float v, int mask, int width = 32) {
  int const lane = lane_id();
  return exchange(v, lane / width * width + ((lane % width) ^ mask) % width);
}
// Under run_warp, shared memory and barriers are not emulated: a template may name them on a path its
// emulated configurations never take (row_logsumexp_online.cu's merge across a group's warps, for groups of
// more than 32 threads). Under run_block a barrier is a rendezvous of the block's threads.
#define __shared__ static
inline void __syncthreads() {
  if (!g_warp->whole_block) {
    std::fprintf(stderr, "__syncthreads is not emulated: run this template with one warp per group\n");
    std::abort();
  }
  rendezvous();
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
// A pack access off its alignment is a misaligned-address fault on the GPU: here it aborts the check. The
// accesses are counted, so that a check can tell that its shapes took the pack path.
inline long long g_pack_accesses = 0;
inline void check_pack_alignment(void const* p, std::size_t bytes) {
  ++g_pack_accesses;
  if ((reinterpret_cast<unsigned long long>(p) & (bytes - 1ull)) != 0ull) {
    std::fprintf(stderr, "misaligned %zu-byte pack access at %p\n", bytes, p);
    std::abort();
  }
}
template <typename T, int N>
inline Pack<T, N> load_pack(T const* p) {
  check_pack_alignment(p, sizeof(Pack<T, N>));
  Pack<T, N> pack;
  std::memcpy(&pack, p, sizeof(pack));
  return pack;
}
template <typename T, int N>
inline void store_pack(T* p, Pack<T, N> const& pack) {
  check_pack_alignment(p, sizeof(pack));
  std::memcpy(p, &pack, sizeof(pack));
}
inline bool aligned_to(void const* p, unsigned bytes) {
  return (reinterpret_cast<unsigned long long>(p) & (bytes - 1ull)) == 0ull;
}
// strategy.cuh's warp reductions, on the emulated shuffles.
inline float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}
inline float warp_max(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}
}  // namespace kopt_strategy
