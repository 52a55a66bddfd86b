// Reference for spmv_ell-f32: y = A x in ELLPACK, one thread per row, FP32 accumulation
// (../spmv_ell-common.cuh). No baseline: cuSPARSE has no plain ELL format (see task.toml).
#include "../spmv_ell-common.cuh"

extern "C" void spmv_ell(float* y, const int* col_idx, const float* vals, const float* x, int M, int N,
                         int W) {
  (void)N;
  spmv_ell_reference(y, col_idx, vals, x, M, W);
}
