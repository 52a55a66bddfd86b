// Vendor baseline for spmm_csr-bf16: cusparseSpMM (generic API, CSR times row-major dense,
// BF16 storage, FP32 compute) through ../cusparse-common.cuh.
#include <cuda_bf16.h>

#include "../cusparse-common.cuh"

extern "C" void spmm_csr(__nv_bfloat16* C, const int* row_ptr, const int* col_idx, const __nv_bfloat16* vals,
                         const __nv_bfloat16* B, int M, int K, int N, int NNZ) {
  sparse_suite::cusparse_spmm_csr(CUDA_R_16BF, C, row_ptr, col_idx, vals, B, M, K, N, NNZ);
}
