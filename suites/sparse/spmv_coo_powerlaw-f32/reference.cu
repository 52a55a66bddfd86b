// Reference for spmv_coo_powerlaw-f32: y = A x, one thread per row, FP32 accumulation
// (../spmv_coo-common.cuh).
#include "../spmv_coo-common.cuh"

extern "C" void spmv_coo(float* y, const int* row_idx, const int* col_idx, const float* vals, const float* x,
                         int M, int N, int NNZ) {
  spmv_coo_reference(y, row_idx, col_idx, vals, x, M, NNZ);
}
