// Strategy dot_block_then_grid_two_pass, dot family (launcher mode): *result = sum_i x[i] * y[i].
// Pass 1: a grid of at most BLOCKS_PER_SM blocks per SM streams both vectors with 128-bit loads (UNROLL
// independent load pairs in flight per thread, one FP32 accumulator each, fused multiply-adds), reduces
// each block with warp shuffles and writes one partial per block into a static __device__ array. Pass 2:
// one block of 1024 threads adds the partials in a fixed order and rounds once to T (deterministic).
// When x and y share their offset from a 16-byte boundary, a scalar head reaches the boundary and the
// rest is vectorised; otherwise, and for the tail, elements are read one by one (any alignment, any n).
//
// Knobs: BLOCK threads per block; UNROLL 128-bit load pairs in flight per thread; BLOCKS_PER_SM caps pass
// 1's grid at that many blocks per SM (the rest is a grid-stride loop).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob BLOCKS_PER_SM = [1, 2, 4, 8] resources=none
// kopt:constraint BLOCK * BLOCKS_PER_SM <= 2048
// kopt:constraint BLOCK * UNROLL <= 2048

#include <cuda_runtime.h>

#ifndef BLOCK
#define BLOCK 512
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef BLOCKS_PER_SM
#define BLOCKS_PER_SM 2
#endif

namespace dot_two_pass {

using T = {{T}};
constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kMaxPartials = 8192;                      // pass 1 never launches more blocks than this
constexpr int kFinalThreads = 1024;

__device__ float partials[kMaxPartials];

// The block's sum, valid in thread 0. Called once per kernel.
template <int Threads>
__device__ __forceinline__ float block_sum(float v) {
  __shared__ float warp_values[Threads / 32];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  v = kopt_strategy::warp_sum(v);
  if (lane == 0) warp_values[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < Threads / 32 ? warp_values[lane] : 0.0f;
    v = kopt_strategy::warp_sum(v);
  }
  return v;
}

__global__ void __launch_bounds__(BLOCK)
    partials_kernel(const T* __restrict__ x, const T* __restrict__ y, int n) {
  using kopt_strategy::Pack;
  using kopt_strategy::to_float;
  float acc[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) acc[u] = 0.0f;
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const stride = static_cast<long long>(gridDim.x) * BLOCK;
  unsigned long long const ax = reinterpret_cast<unsigned long long>(x);
  unsigned long long const ay = reinterpret_cast<unsigned long long>(y);
  long long head = static_cast<long long>(((16ull - (ax & 15ull)) & 15ull) / sizeof(T));
  // Vectors only when both are element-aligned and equally far from a 16-byte boundary.
  if (ax % sizeof(T) != 0 || ((ax ^ ay) & 15ull) != 0 || head > n) head = n;
  for (long long i = tid; i < head; i += stride) acc[0] = fmaf(to_float(x[i]), to_float(y[i]), acc[0]);
  T const* xb = x + head;
  T const* yb = y + head;
  long long const m = n - head;
  long long const packs = m / kVec;
  long long p = tid;
  for (; p + (UNROLL - 1) * stride < packs; p += UNROLL * stride) {
    Pack<T, kVec> a[UNROLL];
    Pack<T, kVec> b[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      a[u] = kopt_strategy::load_pack<T, kVec>(xb + (p + u * stride) * kVec);
      b[u] = kopt_strategy::load_pack<T, kVec>(yb + (p + u * stride) * kVec);
    }
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int e = 0; e < kVec; ++e) acc[u] = fmaf(to_float(a[u].v[e]), to_float(b[u].v[e]), acc[u]);
    }
  }
  for (; p < packs; p += stride) {
    Pack<T, kVec> const a = kopt_strategy::load_pack<T, kVec>(xb + p * kVec);
    Pack<T, kVec> const b = kopt_strategy::load_pack<T, kVec>(yb + p * kVec);
#pragma unroll
    for (int e = 0; e < kVec; ++e) acc[0] = fmaf(to_float(a.v[e]), to_float(b.v[e]), acc[0]);
  }
  long long const t = packs * kVec + tid;  // tail: fewer than kVec elements
  if (t < m) acc[0] = fmaf(to_float(xb[t]), to_float(yb[t]), acc[0]);
#pragma unroll
  for (int u = 1; u < UNROLL; ++u) acc[0] += acc[u];
  float const block_value = block_sum<BLOCK>(acc[0]);
  if (threadIdx.x == 0) partials[blockIdx.x] = block_value;
}

__global__ void __launch_bounds__(kFinalThreads) final_kernel(T* __restrict__ result, int count) {
  float acc = 0.0f;
  for (int i = static_cast<int>(threadIdx.x); i < count; i += kFinalThreads) acc += partials[i];
  float const total = block_sum<kFinalThreads>(acc);
  if (threadIdx.x == 0) *result = kopt_strategy::from_float<T>(total);
}

// kopt:include ../common/multiprocessors.cuh

}  // namespace dot_two_pass

extern "C" void {{ENTRY}}({{T}}* result, const {{T}}* x, const {{T}}* y, int n) {
  using namespace dot_two_pass;
  if (n < 0) n = 0;
  long long const per_block = static_cast<long long>(BLOCK) * UNROLL * kVec;
  long long blocks = (static_cast<long long>(n) + per_block - 1) / per_block;
  long long cap = static_cast<long long>(multiprocessors()) * BLOCKS_PER_SM;
  if (cap > kMaxPartials) cap = kMaxPartials;
  if (blocks > cap) blocks = cap;
  if (blocks < 1) blocks = 1;
  partials_kernel<<<static_cast<unsigned>(blocks), BLOCK>>>(x, y, n);
  final_kernel<<<1, kFinalThreads>>>(result, static_cast<int>(blocks));
}
