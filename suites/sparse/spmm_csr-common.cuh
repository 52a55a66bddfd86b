// Reference SpMM with A in CSR, shared by spmm_csr{,_powerlaw}-{f32,bf16}: C = A B with A sparse M x K
// (CSR), B dense K x N row-major, C dense M x N row-major. One thread per element of C (flattened:
// thread i computes C[i / N][i % N]) walks row i / N of A out of global memory and gathers the matching
// entries of column i % N of B; FP32 accumulation, one rounding to the storage type. Naive on purpose:
// every thread of a row re-reads that row's indices and values.
#pragma once
#include "element.cuh"

template <typename T>
__global__ void spmm_csr_reference_kernel(T* C, const int* row_ptr, const int* col_idx, const T* vals,
                                          const T* B, int M, int N) {
  long long const i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(M) * N) return;
  long long const row = i / N;
  long long const col = i % N;
  float sum = 0.0f;
  for (int k = row_ptr[row]; k < row_ptr[row + 1]; ++k) {
    sum += sparse_suite::to_float(vals[k]) *
           sparse_suite::to_float(B[static_cast<long long>(col_idx[k]) * N + col]);
  }
  C[i] = sparse_suite::from_float<T>(sum);
}

template <typename T>
void spmm_csr_reference(T* C, const int* row_ptr, const int* col_idx, const T* vals, const T* B, int M,
                        int N) {
  long long const outputs = static_cast<long long>(M) * N;
  if (outputs <= 0) return;
  int const block = 256;
  auto const grid = static_cast<unsigned>((outputs + block - 1) / block);
  spmm_csr_reference_kernel<T><<<grid, block>>>(C, row_ptr, col_idx, vals, B, M, N);
}
