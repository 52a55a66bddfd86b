// Vendor baseline for spmv_coo-bf16: cusparseSpMV (generic API, COO, BF16 storage, FP32 compute)
// through ../cusparse-common.cuh (one handle on the per-thread default stream, a reused workspace).
#include <cuda_bf16.h>

#include "../cusparse-common.cuh"

extern "C" void spmv_coo(__nv_bfloat16* y, const int* row_idx, const int* col_idx, const __nv_bfloat16* vals,
                         const __nv_bfloat16* x, int M, int N, int NNZ) {
  sparse_suite::cusparse_spmv_coo(CUDA_R_16BF, y, row_idx, col_idx, vals, x, M, N, NNZ);
}
