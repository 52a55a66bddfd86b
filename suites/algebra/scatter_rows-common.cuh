// Shared by suites/algebra/scatter_rows-f32/-bf16 (int32 indices) and scatter_rows_i64-f32/-bf16 (int64
// indices, as index_copy_ takes them): a row scatter with distinct indices (index_copy_ over dim 0 of a
// row-major matrix):
//   out[idx[i]][d] = src[i][d]   for 0 <= i < n, 0 <= d < dim, with the idx[i] distinct in [0, rows);
// the other rows of out keep their values (out is read and written: an inout buffer). The launcher is not
// given rows (the kernel does not need it; the task's inputs keep every index in out). Reference: one
// thread per source element, each loading its row's index and copying one element, offsets in 64 bits:
// naive on purpose (4- or 2-byte accesses, an index load per element) but obviously correct. A copy:
// bit-exact, no arithmetic. The vendor baseline (thrust) is in scatter_rows-thrust.cuh.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

namespace algebra_scatter_rows {

template <typename T, typename I>
__global__ void scatter_rows_reference_kernel(T* out, const T* src, const I* idx, int n, int dim) {
  long long const index = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  long long const total = static_cast<long long>(n) * dim;
  if (index >= total) return;
  long long const i = index / dim;
  int const d = static_cast<int>(index % dim);
  out[static_cast<long long>(idx[i]) * dim + d] = src[index];
}

template <typename T, typename I>
void reference(T* out, const T* src, const I* idx, int n, int dim) {
  long long const total = static_cast<long long>(n) * dim;
  if (total <= 0) return;
  int const block = 256;
  auto const grid = static_cast<unsigned int>((total + block - 1) / block);
  scatter_rows_reference_kernel<<<grid, block>>>(out, src, idx, n, dim);
}

}  // namespace algebra_scatter_rows
