// Strategy block_then_grid_two_pass, reduction family (launcher mode): *out = combine over in[0..n).
// Pass 1: a grid of at most BLOCKS_PER_SM blocks per SM streams the input with 128-bit loads (UNROLL
// independent loads in flight per thread, one accumulator each), reduces each block with warp shuffles
// and writes one partial per block into a static __device__ array. Pass 2: one block of 1024 threads
// combines the partials in a fixed order and rounds once to T. Both passes are deterministic.
// Elements before the first 16-byte boundary and after the last full pack are read one by one, so any
// pointer alignment and any n work. Arithmetic is FP32 for FP32 and BF16 storage.
//
// Knobs: BLOCK threads per block; UNROLL 128-bit loads in flight per thread; BLOCKS_PER_SM caps pass 1's
// grid at that many blocks per SM (the rest is a grid-stride loop).
// kopt:knob BLOCK = [128, 256, 512, 1024]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob BLOCKS_PER_SM = [1, 2, 4, 8] resources=none
// kopt:constraint BLOCK * BLOCKS_PER_SM <= 2048
// kopt:constraint BLOCK * UNROLL <= 4096

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
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif

namespace reduce_two_pass {

using T = {{T}};
constexpr int kVec = 16 / static_cast<int>(sizeof(T));  // elements per 128-bit pack
constexpr int kMaxPartials = 8192;                      // pass 1 never launches more blocks than this
constexpr int kFinalThreads = 1024;

__device__ float partials[kMaxPartials];

__device__ __forceinline__ float combine(float a, float b) { return ({{combine}}); }
__device__ __forceinline__ float identity() { return ({{identity}}); }

__device__ __forceinline__ float warp_combine(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v = combine(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

// The block's combined value, valid in thread 0. Called once per kernel.
template <int Threads>
__device__ __forceinline__ float block_combine(float v) {
  __shared__ float warp_values[Threads / 32];
  int const lane = static_cast<int>(threadIdx.x) & 31;
  int const warp = static_cast<int>(threadIdx.x) >> 5;
  v = warp_combine(v);
  if (lane == 0) warp_values[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < Threads / 32 ? warp_values[lane] : identity();
    v = warp_combine(v);
  }
  return v;
}

__global__ void __launch_bounds__(BLOCK) partials_kernel(const T* __restrict__ in, int n) {
  using kopt_strategy::Pack;
  using kopt_strategy::to_float;
  float acc[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) acc[u] = identity();
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  long long const stride = static_cast<long long>(gridDim.x) * BLOCK;
  // Head: the elements before the first 16-byte boundary (fewer than kVec, fewer than the grid's threads).
  unsigned long long const address = reinterpret_cast<unsigned long long>(in);
  long long head = static_cast<long long>(((16ull - (address & 15ull)) & 15ull) / sizeof(T));
  if (address % sizeof(T) != 0 || head > n) head = n;  // no aligned body: everything goes element-wise
  if (head > stride) {
    for (long long i = tid; i < head; i += stride) acc[0] = combine(acc[0], to_float(in[i]));
  } else if (tid < head) {
    acc[0] = combine(acc[0], to_float(in[tid]));
  }
  T const* body = in + head;
  long long const m = n - head;
  long long const packs = m / kVec;
  long long p = tid;
  for (; p + (UNROLL - 1) * stride < packs; p += UNROLL * stride) {
    Pack<T, kVec> v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = kopt_strategy::load_pack<T, kVec>(body + (p + u * stride) * kVec);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
#pragma unroll
      for (int e = 0; e < kVec; ++e) acc[u] = combine(acc[u], to_float(v[u].v[e]));
    }
  }
  for (; p < packs; p += stride) {
    Pack<T, kVec> const v = kopt_strategy::load_pack<T, kVec>(body + p * kVec);
#pragma unroll
    for (int e = 0; e < kVec; ++e) acc[0] = combine(acc[0], to_float(v.v[e]));
  }
  // Tail: fewer than kVec elements after the last full pack.
  long long const t = packs * kVec + tid;
  if (t < m) acc[0] = combine(acc[0], to_float(body[t]));
#pragma unroll
  for (int u = 1; u < UNROLL; ++u) acc[0] = combine(acc[0], acc[u]);
  float const block_value = block_combine<BLOCK>(acc[0]);
  if (threadIdx.x == 0) partials[blockIdx.x] = block_value;
}

__global__ void __launch_bounds__(kFinalThreads) final_kernel(T* __restrict__ out, int count) {
  float acc = identity();
  for (int i = static_cast<int>(threadIdx.x); i < count; i += kFinalThreads) acc = combine(acc, partials[i]);
  float const total = block_combine<kFinalThreads>(acc);
  if (threadIdx.x == 0) *out = kopt_strategy::from_float<T>(total);
}

// kopt:include ../common/multiprocessors.cuh

}  // namespace reduce_two_pass

extern "C" void {{ENTRY}}({{T}}* out, const {{T}}* in, int n) {
  using namespace reduce_two_pass;
  if (n < 0) n = 0;
  long long const per_block = static_cast<long long>(BLOCK) * UNROLL * kVec;
  long long blocks = (static_cast<long long>(n) + per_block - 1) / per_block;
  long long cap = static_cast<long long>(multiprocessors()) * BLOCKS_PER_SM;
  if (cap > kMaxPartials) cap = kMaxPartials;
  if (blocks > cap) blocks = cap;
  if (blocks < 1) blocks = 1;
  partials_kernel<<<static_cast<unsigned>(blocks), BLOCK>>>(in, n);
  final_kernel<<<1, kFinalThreads>>>(out, static_cast<int>(blocks));
}
