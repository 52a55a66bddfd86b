// Vendor baseline for spmv_csr_powerlaw-f32: cusparseSpMV (generic API, CSR, FP32 FP32 compute)
// through ../cusparse-common.cuh (one handle on the per-thread default stream, a reused workspace).
#include <cuda_bf16.h>

#include "../cusparse-common.cuh"

extern "C" void spmv_csr(float* y, const int* row_ptr, const int* col_idx, const float* vals, const float* x,
                         int M, int N, int NNZ) {
  sparse_suite::cusparse_spmv_csr(CUDA_R_32F, y, row_ptr, col_idx, vals, x, M, N, NNZ);
}
