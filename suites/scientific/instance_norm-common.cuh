// Reference per-row standardisation, shared by instance_norm-{f32,bf16}: each row of a row-major rows x cols
// matrix x standardised with its own statistics,
//   mean[r] = sum over j of x[r][j] / cols
//   var[r]  = sum over j of (x[r][j] - mean[r])^2 / cols   (biased, as PyTorch normalises)
//   out[r][j] = (x[r][j] - mean[r]) / sqrt(var[r] + eps)
// which is nn.InstanceNorm2d (affine = false) with rows = N*C planes of cols = H*W elements, and GroupNorm or
// LayerNorm without their affine parameters (a row per slab). One block of 256 threads per row (one thread
// per row would leave a single long row, such as the one_row case's, to one thread), naive on purpose:
// three strided passes over the row out of global memory, each thread summing its elements in double and the
// block adding the 256 partial sums in a fixed shared-memory tree (deterministic): the mean, then the
// squared deviations from it (two passes, no cancellation), then the normalised write, the arithmetic in
// double and each output rounded once to the storage type. The accurate side of every comparison. No
// vendor baseline: cuDNN (which has one) is not installed.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "element.cuh"

constexpr int kInstanceNormReferenceThreads = 256;

// The block's sum of every thread's v, added in a fixed tree; every thread gets the total. `partial` holds
// kInstanceNormReferenceThreads doubles and is free again when this returns.
__device__ inline double instance_norm_block_sum(double v, double* partial) {
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int stride = kInstanceNormReferenceThreads / 2; stride > 0; stride /= 2) {
    if (static_cast<int>(threadIdx.x) < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  double const total = partial[0];
  __syncthreads();
  return total;
}

// The mean and 1 / sqrt(var + eps) of seg[0 .. count), var biased: every thread of the block (of
// kInstanceNormReferenceThreads) sums its strided elements in double, the block adds the partial sums in a
// fixed tree, the mean first, then the squared deviations from it. Every thread gets both.
// group_norm-common.cuh standardises its slabs with it too.
template <typename T>
__device__ inline double2 segment_moments(const T* seg, long long count, float eps, double* partial) {
  using scientific_suite::to_double;
  long long const first = threadIdx.x;
  long long const step = kInstanceNormReferenceThreads;
  double sum = 0.0;
  for (long long i = first; i < count; i += step) sum += to_double(seg[i]);
  double const mean = instance_norm_block_sum(sum, partial) / static_cast<double>(count);
  double squares = 0.0;
  for (long long i = first; i < count; i += step) {
    double const d = to_double(seg[i]) - mean;
    squares += d * d;
  }
  double const var = instance_norm_block_sum(squares, partial) / static_cast<double>(count);
  return make_double2(mean, 1.0 / sqrt(var + static_cast<double>(eps)));
}

// Block r standardises row r.
template <typename T>
__global__ void instance_norm_reference_kernel(T* out, const T* x, float eps, int cols) {
  __shared__ double partial[kInstanceNormReferenceThreads];
  using scientific_suite::to_double;
  long long const base = static_cast<long long>(blockIdx.x) * cols;
  const T* row = x + base;
  T* y = out + base;
  double2 const moments = segment_moments(row, cols, eps, partial);
  for (int j = static_cast<int>(threadIdx.x); j < cols; j += kInstanceNormReferenceThreads)
    scientific_suite::store(&y[j], (to_double(row[j]) - moments.x) * moments.y);
}

// The launch [launch] describes: rows blocks of 256 threads.
template <typename T>
void instance_norm_reference(T* out, const T* x, float eps, int rows, int cols) {
  if (rows <= 0 || cols <= 0) return;
  instance_norm_reference_kernel<T>
      <<<static_cast<unsigned>(rows), kInstanceNormReferenceThreads>>>(out, x, eps, cols);
}
