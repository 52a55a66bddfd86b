// Reference SpMV in CSR, shared by spmv_csr{,_powerlaw}-{f32,bf16}: y = A x. One thread per row (one
// output element) walks its row's nonzeros straight out of global memory and accumulates in FP32;
// the result is rounded once to the storage type. Naive on purpose: a long row (power-law case) keeps
// its thread busy while the rest of the warp idles, and neighbouring threads read far-apart memory.
#pragma once
#include "element.cuh"

template <typename T>
__global__ void spmv_csr_reference_kernel(T* y, const int* row_ptr, const int* col_idx, const T* vals,
                                          const T* x, int M) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  float sum = 0.0f;
  for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k) {
    sum += sparse_suite::to_float(vals[k]) * sparse_suite::to_float(x[col_idx[k]]);
  }
  y[row] = sparse_suite::from_float<T>(sum);
}

template <typename T>
void spmv_csr_reference(T* y, const int* row_ptr, const int* col_idx, const T* vals, const T* x, int M) {
  if (M <= 0) return;
  int const block = 256;
  int const grid = (M + block - 1) / block;
  spmv_csr_reference_kernel<T><<<grid, block>>>(y, row_ptr, col_idx, vals, x, M);
}
