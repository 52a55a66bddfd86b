// Reference group normalisation (nn.GroupNorm(G, C) on an NCHW tensor), shared by group_norm-{f32,bf16}: x
// is N x C x HW (HW = H*W), the C channels split into G groups of C/G consecutive channels (C % G == 0), and
// for each sample n and group g the statistics of the (C/G)*HW contiguous elements of its slab,
//   mean[n][g] = sum over the slab of x / ((C/G)*HW)
//   var[n][g]  = sum over the slab of (x - mean[n][g])^2 / ((C/G)*HW)   (biased, as PyTorch normalises)
//   out[n][c][i] = (x[n][c][i] - mean[n][g]) / sqrt(var[n][g] + eps) * gamma[c] + beta[c]   (g = c / (C/G))
// (G = C is InstanceNorm with affine parameters, G = 1 LayerNorm over (C, H, W) with per-channel ones). One
// block of 256 threads per slab, naive on purpose: three strided passes over the slab out of global memory,
// each thread summing its elements in double and the block adding the 256 partial sums in a fixed
// shared-memory tree (deterministic): the mean, then the squared deviations from it (two passes, no
// cancellation), then the normalised write, the channel found by division, the arithmetic in double and each
// output rounded once to the storage type. The accurate side of every comparison. No vendor baseline: cuDNN
// (which has one) is not installed.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "element.cuh"
#include "instance_norm-common.cuh"  // segment_moments: the statistics of one slab

// Block n*G + g normalises the slab of sample n and group g.
template <typename T>
__global__ void group_norm_reference_kernel(T* out, const T* x, const T* gamma, const T* beta, float eps,
                                            int C, int G, int HW) {
  __shared__ double partial[kInstanceNormReferenceThreads];
  using scientific_suite::to_double;
  int const n = static_cast<int>(blockIdx.x) / G;
  int const g = static_cast<int>(blockIdx.x) % G;
  int const channels = C / G;
  long long const count = static_cast<long long>(channels) * HW;
  long long const base = (static_cast<long long>(n) * C + static_cast<long long>(g) * channels) * HW;
  const T* slab = x + base;
  T* y = out + base;
  double2 const moments = segment_moments(slab, count, eps, partial);
  for (long long i = threadIdx.x; i < count; i += kInstanceNormReferenceThreads) {
    int const c = g * channels + static_cast<int>(i / HW);
    scientific_suite::store(
        &y[i], (to_double(slab[i]) - moments.x) * moments.y * to_double(gamma[c]) + to_double(beta[c]));
  }
}

// The launch [launch] describes: N*G blocks of 256 threads. C % G != 0 is no GroupNorm (PyTorch refuses it).
template <typename T>
void group_norm_reference(T* out, const T* x, const T* gamma, const T* beta, float eps, int N, int C, int G,
                          int HW) {
  if (N <= 0 || C <= 0 || G <= 0 || HW <= 0 || C % G != 0) return;
  unsigned const slabs = static_cast<unsigned>(static_cast<long long>(N) * G);
  group_norm_reference_kernel<T>
      <<<slabs, kInstanceNormReferenceThreads>>>(out, x, gamma, beta, eps, C, G, HW);
}
