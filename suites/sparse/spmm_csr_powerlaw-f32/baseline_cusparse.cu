// Vendor baseline for spmm_csr_powerlaw-f32: cusparseSpMM (generic API, CSR times row-major dense,
// FP32 FP32 compute) through ../cusparse-common.cuh.
#include <cuda_bf16.h>

#include "../cusparse-common.cuh"

extern "C" void spmm_csr(float* C, const int* row_ptr, const int* col_idx, const float* vals, const float* B,
                         int M, int K, int N, int NNZ) {
  sparse_suite::cusparse_spmm_csr(CUDA_R_32F, C, row_ptr, col_idx, vals, B, M, K, N, NNZ);
}
