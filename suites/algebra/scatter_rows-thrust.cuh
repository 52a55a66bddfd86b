// Vendor baseline of scatter_rows-f32/-bf16 and scatter_rows_i64-f32/-bf16: thrust::scatter of the n*dim
// elements with the element map idx[e / dim] * dim + e % dim (a transform of a counting iterator), on the
// per-thread default stream kopt times on, without a synchronisation (par_nosync).
#pragma once
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scatter.h>

#include "scatter_rows-common.cuh"

namespace algebra_scatter_rows {

// Source element e (row e / dim, column e % dim) goes to element idx[e / dim] * dim + e % dim of out.
template <typename I>
struct ElementMap {
  const I* idx;
  long long dim;
  __host__ __device__ long long operator()(long long e) const {
    return static_cast<long long>(idx[e / dim]) * dim + e % dim;
  }
};

template <typename T, typename I>
void baseline_thrust(T* out, const T* src, const I* idx, int n, int dim) {
  long long const total = static_cast<long long>(n) * dim;
  if (total <= 0) return;
  auto const map = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0),
                                                   ElementMap<I>{idx, static_cast<long long>(dim)});
  thrust::scatter(thrust::cuda::par_nosync.on(cudaStreamPerThread), src, src + total, map, out);
}

}  // namespace algebra_scatter_rows
