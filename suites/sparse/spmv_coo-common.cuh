// Reference SpMV in COO, shared by spmv_coo{,_powerlaw}-{f32,bf16}: y = A x with the nonzeros sorted by
// row (then column). One thread per row (one output element): a binary search over row_idx finds the
// row's first nonzero, then the thread sums its run in FP32 and rounds once to the storage type. No
// atomics, no zero-fill of y, no scratch: deterministic and obviously correct, but naive (one thread
// per row, scattered loads, O(log NNZ) extra reads per row).
#pragma once
#include "element.cuh"

template <typename T>
__global__ void spmv_coo_reference_kernel(T* y, const int* row_idx, const int* col_idx, const T* vals,
                                          const T* x, int M, int NNZ) {
  int const row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  int lo = 0;  // first k with row_idx[k] >= row
  int hi = NNZ;
  while (lo < hi) {
    int const mid = lo + (hi - lo) / 2;
    if (row_idx[mid] < row) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  float sum = 0.0f;
  for (int k = lo; k < NNZ && row_idx[k] == row; ++k) {
    sum += sparse_suite::to_float(vals[k]) * sparse_suite::to_float(x[col_idx[k]]);
  }
  y[row] = sparse_suite::from_float<T>(sum);
}

template <typename T>
void spmv_coo_reference(T* y, const int* row_idx, const int* col_idx, const T* vals, const T* x, int M,
                        int NNZ) {
  if (M <= 0) return;
  int const block = 256;
  int const grid = (M + block - 1) / block;
  spmv_coo_reference_kernel<T><<<grid, block>>>(y, row_idx, col_idx, vals, x, M, NNZ);
}
