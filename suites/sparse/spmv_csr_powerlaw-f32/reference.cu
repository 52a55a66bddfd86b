// Reference for spmv_csr_powerlaw-f32: y = A x, one thread per row, FP32 accumulation
// (../spmv_csr-common.cuh).
#include "../spmv_csr-common.cuh"

extern "C" void spmv_csr(float* y, const int* row_ptr, const int* col_idx, const float* vals, const float* x,
                         int M, int N, int NNZ) {
  spmv_csr_reference(y, row_ptr, col_idx, vals, x, M);
}
