// Strategy batchnorm_train_flat, batchnorm_train family (launcher mode): batch normalisation in training
// mode, NCHW, as batchnorm_train_channels computes it (mean[c] and biased var[c] of the batch over N, H and
// W, rounded once to T; out = (x - mean[c]) / sqrt(var[c] + eps) * gamma[c] + beta[c]), for small planes
// (7 x 7, 14 x 14 feature maps, or H*W not a multiple of the vector width), where a walk per channel moves
// H*W-element pieces that 128-bit accesses cannot cover. Two kernels, FP32 arithmetic:
//   1. statistics: batchnorm_train_stats.cuh (blocks per channel, shifted FP32 sums, a last-block ticket per
//      channel writes mean, var and the channel's constants; element by element along each plane when H*W
//      is not a multiple of the pack);
//   2. normalize: the tensor as one flat array walked grid-stride in 128-bit packs by about one wave of
//      blocks, UNROLL packs in flight per thread (all loaded before any is stored), so loads and stores stay
//      128-bit whatever H*W is. A pack inside one plane looks its channel up once (one division, 32-bit
//      when the tensor has fewer than 2^32 elements) and applies ((x - K) - (mean - K)) * scale + beta with
//      the channel's FP32 constants (16 bytes, L1-resident); a pack across planes looks up per element.
//      Unaligned buffers and the elements after the last whole pack go element by element.
// Deterministic; any shape and offset are correct.
//
// Knobs: BLOCK threads per block; UNROLL loads in flight per thread and step (both passes); BLOCKS_PER_SM the
// blocks per SM both grids aim at (capped by occupancy).
// kopt:knob BLOCK = [128, 256, 512]
// kopt:knob UNROLL = [1, 2, 4, 8]
// kopt:knob BLOCKS_PER_SM = [1, 2, 4, 8] resources=none
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

namespace batchnorm_train_flat {

using T = {{T}};

// kopt:include ../common/multiprocessors.cuh
// kopt:include batchnorm_train_stats.cuh

__device__ __forceinline__ float normalized(float v, float4 const& k) {
  return fmaf((v - k.x) - k.y, k.z, k.w);
}

// I: the index type of the divisions (unsigned when the tensor has fewer than 2^32 elements).
template <typename I>
__device__ __forceinline__ void normalize_flat(T* __restrict__ out, const T* __restrict__ x, int C,
                                               long long hw, long long total,
                                               float4 const* __restrict__ constants) {
  I const plane_elems = static_cast<I>(hw);
  I const channels = static_cast<I>(C);
  long long const threads = static_cast<long long>(gridDim.x) * BLOCK;
  long long const tid = static_cast<long long>(blockIdx.x) * BLOCK + threadIdx.x;
  bool const aligned =
      kopt_strategy::aligned_to(x, sizeof(Vec)) && kopt_strategy::aligned_to(out, sizeof(Vec));
  long long const packs = aligned ? total / kVec : 0;
  for (long long p = tid; p < packs; p += threads * UNROLL) {
    Vec v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u)
      if (p + u * threads < packs) v[u] = kopt_strategy::load_pack<T, kVec>(x + (p + u * threads) * kVec);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) {
      if (p + u * threads >= packs) continue;
      I const at = static_cast<I>((p + u * threads) * kVec);
      I const plane = at / plane_elems;
      I const in_plane = at - plane * plane_elems;
      float4 const k = constants[static_cast<long long>(plane % channels)];
      if (in_plane + kVec <= plane_elems) {
#pragma unroll
        for (int e = 0; e < kVec; ++e) v[u].v[e] = from_float<T>(normalized(to_float(v[u].v[e]), k));
      } else {  // the pack ends in a later plane
#pragma unroll
        for (int e = 0; e < kVec; ++e) {
          float4 const ke = constants[static_cast<long long>(((at + e) / plane_elems) % channels)];
          v[u].v[e] = from_float<T>(normalized(to_float(v[u].v[e]), ke));
        }
      }
      kopt_strategy::store_pack<T, kVec>(out + static_cast<long long>(at), v[u]);
    }
  }
  // The elements after the last whole pack (all of them when the buffers are not aligned).
  for (long long i = packs * kVec + tid; i < total; i += threads) {
    float4 const k = constants[static_cast<long long>((static_cast<I>(i) / plane_elems) % channels)];
    out[i] = from_float<T>(normalized(to_float(x[i]), k));
  }
}

__global__ void __launch_bounds__(BLOCK)
    normalize_kernel(T* __restrict__ out, const T* __restrict__ x, int C, long long hw, long long total,
                     float4 const* __restrict__ constants) {
  if (total < (1ll << 32))
    normalize_flat<unsigned>(out, x, C, hw, total, constants);
  else
    normalize_flat<unsigned long long>(out, x, C, hw, total, constants);
}

}  // namespace batchnorm_train_flat

// clang-format off
extern "C" void {{ENTRY}}({{T}}* out,
#if !KOPT_FORWARD_ONLY
                          {{T}}* mean, {{T}}* var,
#endif
                          const {{T}}* x, const {{T}}* gamma, const {{T}}* beta, float eps, int N, int C, int H,
                          int W
#if KOPT_TORCH_STATS
                          , {{T}}* running_mean, {{T}}* running_var, float momentum
#endif
                          ) {
  // clang-format on
#if KOPT_FORWARD_ONLY
  {{T}}* const mean = nullptr;  // the statistics stay inside (nn.BatchNorm2d's forward returns the output only)
  {{T}}* const var = nullptr;
#endif
  using namespace batchnorm_train_flat;
  if (N < 0 || C <= 0 || H < 0 || W < 0) return;
  long long const hw = static_cast<long long>(H) * W;
  int const splits = splits_for(N, C, hw);
  Scratch s;
#if KOPT_TORCH_STATS
  RunningStats const running{running_mean, running_var, momentum};
  if (!launch_stats(mean, var, x, gamma, beta, eps, N, C, hw, splits, s, running)) return;  // out of memory
#else
  if (!launch_stats(mean, var, x, gamma, beta, eps, N, C, hw, splits, s)) return;  // out of memory: unwritten
#endif
  long long const total = static_cast<long long>(N) * C * hw;
  if (total <= 0) return;
  static int const per_sm = resident_blocks(normalize_kernel);
  long long const per_block = static_cast<long long>(BLOCK) * UNROLL * kVec;
  long long blocks = (total + per_block - 1) / per_block;
  long long const wave = static_cast<long long>(multiprocessors()) * per_sm;
  if (blocks > wave) blocks = wave;
  normalize_kernel<<<static_cast<unsigned>(blocks), BLOCK, 0, kopt_strategy::launch_stream()>>>(out, x, C, hw, total, s.constants);
}
