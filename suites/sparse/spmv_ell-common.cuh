// Reference SpMV in ELLPACK, shared by spmv_ell-{f32,bf16}: y = A x where row r owns the W slots
// r*W .. r*W+W-1 of col_idx/vals (row-major slots); a padding slot has column -1 (and value 0) and is
// skipped. One thread per row (one output element), FP32 accumulation, one rounding to the storage
// type. Naive on purpose: with row-major slots, neighbouring threads read addresses W elements apart.
#pragma once
#include "element.cuh"

template <typename T>
__global__ void spmv_ell_reference_kernel(T* y, const int* col_idx, const T* vals, const T* x, int M, int W) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  long long const first = static_cast<long long>(row) * W;
  float sum = 0.0f;
  for (int j = 0; j < W; ++j) {
    int const col = col_idx[first + j];
    if (col < 0) continue;
    sum += sparse_suite::to_float(vals[first + j]) * sparse_suite::to_float(x[col]);
  }
  y[row] = sparse_suite::from_float<T>(sum);
}

template <typename T>
void spmv_ell_reference(T* y, const int* col_idx, const T* vals, const T* x, int M, int W) {
  if (M <= 0) return;
  int const block = 256;
  int const grid = (M + block - 1) / block;
  spmv_ell_reference_kernel<T><<<grid, block>>>(y, col_idx, vals, x, M, W);
}
