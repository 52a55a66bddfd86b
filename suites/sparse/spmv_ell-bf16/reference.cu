// Reference for spmv_ell-bf16: y = A x in ELLPACK, one thread per row, FP32 accumulation
// (../spmv_ell-common.cuh). No baseline: cuSPARSE has no plain ELL format (see task.toml).
#include "../spmv_ell-common.cuh"

extern "C" void spmv_ell(__nv_bfloat16* y, const int* col_idx, const __nv_bfloat16* vals,
                         const __nv_bfloat16* x, int M, int N, int W) {
  (void)N;
  spmv_ell_reference(y, col_idx, vals, x, M, W);
}
