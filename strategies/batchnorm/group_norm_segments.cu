// Strategy group_norm_segments, group_norm family (launcher mode): GroupNorm of an N x C x HW tensor (HW the
// product of the spatial dimensions) with C / G channels per group, as nn.GroupNorm computes it: for each
// sample n and group g, mean and biased variance over the group's (C / G) * HW contiguous elements, then
//   out[n][c][i] = (x[n][c][i] - mean_ng) / sqrt(var_ng + eps) * gamma[c] + beta[c].
// InstanceNorm with affine parameters is the case G = C. Three kernels, FP32 arithmetic:
//   1. statistics (batchnorm_train_stats.cuh) with each (n, g) slab as one channel of one plane: about one
//      wave of blocks, several per slab when slabs are few; sums of x - K and (x - K)^2 around a per-slab
//      shift K, the slab's last block (ticket) adds the pairs in a fixed order, in double;
//   2. plane constants: one thread per (n, c) folds its slab's constants with gamma[c] and beta[c] (N * C
//      values of 16 bytes, nothing per element);
//   3. normalize (batchnorm_train_normalize.cuh) over the N * C planes: one FMA per element.
// Planes of fewer than 64 elements (HW = 1 after a linear layer) skip 2. and 3.: one pass over the elements in
// order reads each one's slab constants and channel parameters (flat_normalize).
// Two reads of x and one write of out; no division per element (but in that pass); deterministic. Planes whose
// size is not a multiple of 4 (FP32) or 8 (BF16), or misaligned buffers, go element by element (coalesced).
//
// Knobs: BLOCK threads per block; UNROLL positions in flight per thread and step; BLOCKS_PER_SM the blocks
// per SM the grids aim at (capped by occupancy); STREAM cache hints on pass 3.
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob BLOCKS_PER_SM = [1, 2, 4, 8] resources=none
// kopt:knob STREAM = [0, 1] resources=none
// kopt:constraint BLOCK * BLOCKS_PER_SM <= 2048

#include <cuda_runtime.h>

#ifndef BLOCK
#define BLOCK 256
#endif
#ifndef UNROLL
#define UNROLL 4
#endif
#ifndef BLOCKS_PER_SM
#define BLOCKS_PER_SM 4
#endif
#ifndef STREAM
#define STREAM 1
#endif
#define KOPT_SEGMENT_STATS 1  // batchnorm_train_stats.cuh: no mean, var, gamma or beta; the constants' rstd

namespace group_norm_segments {

using T = {{T}};

// kopt:include ../common/multiprocessors.cuh
// kopt:include batchnorm_train_stats.cuh
// kopt:include batchnorm_train_normalize.cuh

// Grow-only device array of the N * C planes' constants (never shrunk). Null when out of memory.
float4* plane_scratch(long long planes) {
  static float4* data = nullptr;
  static long long capacity = 0;
  if (planes > capacity) {
    if (data != nullptr) cudaFree(data);  // implicitly waits for the work that still uses it
    data = nullptr;
    capacity = 0;
    if (cudaMalloc(&data, static_cast<size_t>(planes) * sizeof(float4)) != cudaSuccess) {
      data = nullptr;
      return nullptr;
    }
    capacity = planes;
  }
  return data;
}

// Plane p = n * C + c takes slab n * G + c / (C / G) = p / (C / G)'s (K, mean - K, rstd) with gamma[c] folded
// into the scale and beta[c] as the shift.
__global__ void plane_constants(float4* __restrict__ planes, float4 const* __restrict__ slabs,
                                const T* __restrict__ gamma, const T* __restrict__ beta, int C, int per_group,
                                long long count) {
  long long const p = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= count) return;
  int const c = static_cast<int>(p % C);
  float4 const k = slabs[p / per_group];  // written by pass 1 (an earlier kernel)
  planes[p] = make_float4(k.x, k.y, k.z * to_float(gamma[c]), to_float(beta[c]));
}

// Planes shorter than this many elements (a GroupNorm of an N x C input after a linear layer: HW = 1) are
// normalized in one pass over the elements in order (flat_normalize) instead of a walk per plane.
constexpr int kSmallPlane = 64;

// out[i] for every element in order: its plane p = i / HW, channel p % C and slab p / per_group, with the
// slab's (K, mean - K, rstd) and the channel's gamma and beta (both cached: a slab's elements are contiguous),
// the same FMA as the per-plane constants give. 128-bit loads and stores when the count is a multiple of the
// pack and both buffers aligned; elements one by one otherwise.
__global__ void __launch_bounds__(BLOCK)
    flat_normalize(T* __restrict__ out, const T* __restrict__ x, const T* __restrict__ gamma,
                   const T* __restrict__ beta, float4 const* __restrict__ slabs, int C, int per_group, int HW,
                   long long count) {
  auto const value = [&](float v, long long i) {
    long long const p = i / HW;
    int const c = static_cast<int>(p % C);
    float4 const k = slabs[p / per_group];  // written by pass 1 (an earlier kernel)
    return from_float<T>(fmaf((v - k.x) - k.y, k.z * to_float(gamma[c]), to_float(beta[c])));
  };
  long long const stride = static_cast<long long>(gridDim.x) * BLOCK;
  long long const first = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  if (count % kVec == 0 && kopt_strategy::aligned_to(x, sizeof(Vec)) &&
      kopt_strategy::aligned_to(out, sizeof(Vec))) {
    for (long long q = first; q < count / kVec; q += stride) {
      Vec v = load_x(x + q * kVec);
#pragma unroll
      for (int e = 0; e < kVec; ++e) v.v[e] = value(to_float(v.v[e]), q * kVec + e);
      store_out(out + q * kVec, v);
    }
    return;
  }
  for (long long i = first; i < count; i += stride) out[i] = value(to_float(x[i]), i);
}

}  // namespace group_norm_segments

extern "C" void {{ENTRY}}({{T}}* out, const {{T}}* x, const {{T}}* gamma, const {{T}}* beta, float eps, int N,
                          int C, int G, int HW) {
  using namespace group_norm_segments;
  if (N <= 0 || C <= 0 || G <= 0 || C % G != 0 || HW <= 0) return;  // nn.GroupNorm refuses C % G != 0
  int const per_group = C / G;
  int const slabs = N * G;
  long long const slab_elems = static_cast<long long>(per_group) * HW;
  long long const planes = static_cast<long long>(N) * C;
  Scratch s;
  if (!launch_stats(nullptr, nullptr, x, nullptr, nullptr, eps, 1, slabs, slab_elems,
                    splits_for(1, slabs, slab_elems), s))
    return;  // out of memory: out unwritten
  if (HW < kSmallPlane) {
    long long const count = planes * HW;
    long long const wanted = (count / kVec + BLOCK - 1) / BLOCK;
    long long const cap = static_cast<long long>(multiprocessors()) * BLOCKS_PER_SM;
    unsigned const blocks = static_cast<unsigned>(wanted < 1 ? 1 : wanted < cap ? wanted : cap);
    flat_normalize<<<blocks, BLOCK, 0, kopt_strategy::launch_stream()>>>(out, x, gamma, beta, s.constants, C,
                                                                          per_group, HW, count);
    return;
  }
  float4* const constants = plane_scratch(planes);
  if (constants == nullptr) return;
  unsigned const fold_blocks = static_cast<unsigned>((planes + 255) / 256);
  plane_constants<<<fold_blocks, 256, 0, kopt_strategy::launch_stream()>>>(constants, s.constants, gamma, beta, C,
                                                                          per_group, planes);
  int const splits = splits_for(1, static_cast<int>(planes), HW);
  dim3 const grid(static_cast<unsigned>(splits), static_cast<unsigned>(planes < 65535 ? planes : 65535));
  normalize_kernel<<<grid, BLOCK, 0, kopt_strategy::launch_stream()>>>(out, x, 1, static_cast<int>(planes), HW,
                                                                       constants);
}
